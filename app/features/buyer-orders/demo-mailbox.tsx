import { Trans, useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import type { KeptMailView } from "./demo-mailbox.server";

/** The demo shop's mailbox: what would have been mailed, so the sign-in works offline on `npm start`. */
export function DemoMailbox({ mail }: { mail: KeptMailView[] }) {
  const { t, i18n } = useLingui();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader
        title={t`Demo mailbox`}
        description={<Trans>Without a mail server, the demo shop keeps its mail here instead of sending it.</Trans>}
      />
      {mail.length === 0 ? (
        <p className="text-center text-soft">
          <Trans>No mail yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {mail.map((item) => (
            <li key={item.id} className="rounded-2xl border border-border bg-surface p-5">
              <article aria-label={item.subject}>
                <h2 className="font-semibold text-foreground" dir="auto">
                  {item.subject}
                </h2>
                <p className="mt-1 text-sm text-soft">
                  <Trans>To</Trans> <span className="break-all">{item.to}</span> ·{" "}
                  <time dateTime={item.createdAt}>
                    {i18n.date(new Date(item.createdAt), { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })}
                  </time>
                </p>
                <pre className="mt-3 whitespace-pre-wrap break-all font-sans text-foreground" dir="auto">
                  {item.text}
                </pre>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
