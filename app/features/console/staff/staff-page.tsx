import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Form } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import type { StaffNotice } from "./staff-page.server";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import { RoleName } from "../shell/role-name";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import { STAFF_ROLES, type StaffRole } from "~/features/staff/roles";

export interface StaffRow {
  email: string;
  role: StaffRole;
  passkeys: number;
  createdAt: string;
  lastUsedAt: string | null;
}

function RoleOptions() {
  const { t } = useLingui();
  const names: Record<StaffRole, string> = { owner: t`Owner`, admin: t`Admin`, support: t`Support` };
  return (
    <>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {names[role]}
        </option>
      ))}
    </>
  );
}

function NoticeText({ notice }: { notice: Exclude<StaffNotice, { kind: "invited" }> }) {
  switch (notice.kind) {
    case "role-changed":
      return <Trans>The role of {notice.email} was changed.</Trans>;
    case "removed":
      return <Trans>{notice.email} was removed and signed out everywhere.</Trans>;
    case "sessions-revoked":
      return <Trans>{notice.email} was signed out everywhere.</Trans>;
    case "last-owner":
      return <Trans>The last owner cannot be removed or made anything else. Make someone else an owner first.</Trans>;
    case "bad-email":
      return <Trans>Enter an email address, like name@example.com.</Trans>;
    case "bad-role":
      return <Trans>Choose a role: owner, admin or support.</Trans>;
    default:
      return <Trans>There is no such person on the team.</Trans>;
  }
}

/** The setup link, shown once: selected for copying, with a Copy button where the clipboard can be used. */
function InvitationLink({ email, link, existing }: { email: string; link: string; existing: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mb-6 rounded-lg border border-success/40 bg-success/10 p-4">
      <p className="text-foreground text-sm">
        {existing ? (
          <Trans>
            {email} is already on the team: this link adds a passkey to their account. It works once, for one hour, and
            is shown only now.
          </Trans>
        ) : (
          <Trans>Send this setup link to {email}. It works once, for one hour, and is shown only now.</Trans>
        )}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">
            <Trans>Setup link</Trans>
          </span>
          <input
            readOnly
            value={link}
            onFocus={(e) => e.currentTarget.select()}
            className={`${consoleField} font-mono text-sm`}
          />
        </label>
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() =>
            void navigator.clipboard?.writeText(link).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? <Trans>Copied</Trans> : <Trans>Copy link</Trans>}
        </button>
      </div>
    </div>
  );
}

export function StaffPage({ me, staff, notice }: { me: string; staff: StaffRow[]; notice: StaffNotice | null }) {
  const { t } = useLingui();
  const time = useConsoleTime();
  const failed = notice !== null && ["last-owner", "bad-email", "bad-role", "not-found"].includes(notice.kind);
  return (
    <div>
      <ConsoleHeading title={t`Staff`}>
        <Trans>
          Who can use this console, and what they may do. Owners: everything. Admins: everything but staff and the audit
          log. Support: the dashboard, conversations and order look-ups.
        </Trans>
      </ConsoleHeading>
      {notice?.kind === "invited" ? (
        <InvitationLink email={notice.email} link={notice.link} existing={notice.existing} />
      ) : notice ? (
        <ConsoleNotice failed={failed}>
          <NoticeText notice={notice} />
        </ConsoleNotice>
      ) : null}
      <section aria-labelledby="invite-heading" className="mb-10 rounded-lg border border-border-strong bg-surface p-4">
        <h2 id="invite-heading" className="font-semibold text-foreground text-xl">
          <Trans>Invite someone</Trans>
        </h2>
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <label className="min-w-0 flex-1 text-sm">
            <span className="block text-soft">
              <Trans>Email</Trans>
            </span>
            <input name="email" type="email" required autoComplete="off" className={`${consoleField} mt-1`} />
          </label>
          <div className="text-sm">
            <label htmlFor="invite-role" className="block text-soft">
              <Trans>Role</Trans>
            </label>
            <select id="invite-role" name="role" defaultValue="support" className={`${consoleField} mt-1`}>
              <RoleOptions />
            </select>
          </div>
          <button type="submit" name="intent" value="invite" className={buttonStyles.primary}>
            <Trans>Invite</Trans>
          </button>
        </Form>
      </section>
      <section aria-labelledby="team-heading">
        <h2 id="team-heading" className="font-semibold text-foreground text-xl">
          <Trans>The team</Trans>
        </h2>
        <ul className="mt-4 space-y-3">
          {staff.map((person) => (
            <li key={person.email} className="rounded-lg border border-border-strong bg-surface p-4">
              <p className="font-semibold text-foreground">
                {person.email} {person.email === me ? <Trans>(you)</Trans> : null}
              </p>
              <p className="text-sm text-soft">
                <RoleName role={person.role} /> ·{" "}
                <Trans>
                  {person.passkeys} passkeys · added {time(person.createdAt)} · last used {time(person.lastUsedAt)}
                </Trans>
              </p>
              <div className="mt-3 flex flex-wrap items-end gap-3">
                <Form method="post" className="flex items-end gap-2">
                  <input type="hidden" name="email" value={person.email} />
                  <label className="text-sm">
                    <span className="block text-soft">
                      <Trans>Role of {person.email}</Trans>
                    </span>
                    <select name="role" defaultValue={person.role} className={`${consoleField} mt-1`}>
                      <RoleOptions />
                    </select>
                  </label>
                  <button type="submit" name="intent" value="role" className={buttonStyles.secondary}>
                    <Trans>Change role</Trans>
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="email" value={person.email} />
                  <button type="submit" name="intent" value="revoke" className={buttonStyles.secondary}>
                    <Trans>Sign out {person.email} everywhere</Trans>
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="email" value={person.email} />
                  <button type="submit" name="intent" value="remove" className={buttonStyles.secondary}>
                    <Trans>Remove {person.email}</Trans>
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
