import { Trans, useLingui } from "@lingui/react/macro";
import { Form } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import type { AccountNotice } from "./account-page.server";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import { RoleName } from "../shell/role-name";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import { AddPasskey } from "~/features/staff/passkey-button";
import { PASSKEY_NAME_MAX, type StaffRole } from "~/features/staff/roles";
import type { Passkey } from "~/features/staff/passkey-store.server";

function NoticeText({ notice }: { notice: AccountNotice }) {
  switch (notice.kind) {
    case "renamed":
      return <Trans>Passkey renamed to {notice.name}.</Trans>;
    case "removed":
      return <Trans>Passkey {notice.name} removed.</Trans>;
    case "last-passkey":
      return <Trans>Your last passkey cannot be removed: add another one first.</Trans>;
    case "bad-name":
      return <Trans>Give the passkey a name of 1 to 60 characters.</Trans>;
    default:
      return <Trans>That passkey is not one of yours.</Trans>;
  }
}

export function AccountPage({
  email,
  role,
  passkeys,
  notice,
}: {
  email: string;
  role: StaffRole;
  passkeys: Passkey[];
  notice: AccountNotice | null;
}) {
  const { t } = useLingui();
  const { path } = useLocale();
  const time = useConsoleTime();
  const failed = notice !== null && !["renamed", "removed"].includes(notice.kind);
  return (
    <div className="max-w-3xl">
      <ConsoleHeading title={t`Your account`}>
        {email} · <RoleName role={role} />
      </ConsoleHeading>
      {notice ? (
        <ConsoleNotice failed={failed}>
          <NoticeText notice={notice} />
        </ConsoleNotice>
      ) : null}
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading" className="font-semibold text-foreground text-xl">
          <Trans>Your passkeys</Trans>
        </h2>
        <p className="mt-1 text-sm text-soft">
          <Trans>Keep at least two, on different devices, so losing one never locks you out.</Trans>
        </p>
        <ul className="mt-4 space-y-4">
          {passkeys.map((key) => (
            <li key={key.id} className="rounded-lg border border-border-strong bg-surface p-4">
              <p className="font-semibold text-foreground">{key.name}</p>
              <p className="text-sm text-soft">
                <Trans>
                  Added {time(key.createdAt)} · last used {time(key.lastUsedAt)}
                </Trans>
              </p>
              <div className="mt-3 flex flex-wrap items-end gap-3">
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="passkey" value={key.id} />
                  <label className="text-sm">
                    <span className="block text-soft">
                      <Trans>Name</Trans>
                    </span>
                    <input
                      name="name"
                      defaultValue={key.name}
                      required
                      maxLength={PASSKEY_NAME_MAX}
                      className={`${consoleField} mt-1 w-56`}
                    />
                  </label>
                  <button type="submit" name="intent" value="rename" className={buttonStyles.secondary}>
                    <Trans>Rename</Trans>
                  </button>
                </Form>
                {passkeys.length > 1 ? (
                  <Form method="post">
                    <input type="hidden" name="passkey" value={key.id} />
                    <button type="submit" name="intent" value="remove" className={buttonStyles.secondary}>
                      <Trans>Remove {key.name}</Trans>
                    </button>
                  </Form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-6">
          <AddPasskey />
        </div>
      </section>
      <section aria-labelledby="sessions-heading" className="mt-10">
        <h2 id="sessions-heading" className="font-semibold text-foreground text-xl">
          <Trans>Sessions</Trans>
        </h2>
        <p className="mt-1 text-sm text-soft">
          <Trans>Signed in somewhere you no longer use? End every session of your account, this one included.</Trans>
        </p>
        <Form method="post" action={path("/admin/sign-out")} className="mt-3">
          <button type="submit" name="intent" value="sign-out-everywhere" className={buttonStyles.secondary}>
            <Trans>Sign out everywhere</Trans>
          </button>
        </Form>
      </section>
    </div>
  );
}
