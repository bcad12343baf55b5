import { Trans, useLingui } from "@lingui/react/macro";
import { Form } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import type { DeliveriesNotice } from "./deliveries-page.server";
import type { DeliveryHealth, DeliveryLine, DiscordState } from "./deliveries.server";
import { useConsoleTime } from "../shell/console-clock";

function DiscordStateText({ state }: { state: DiscordState }) {
  switch (state) {
    case "not-configured":
      return <Trans>Not configured: the support bot has no token.</Trans>;
    case "not-checked":
      return <Trans>Configured, not checked yet.</Trans>;
    case "working":
      return <Trans>Working: requests are posted and replies relayed.</Trans>;
    case "unauthorized":
      return <Trans>Token refused: Discord does not accept the support bot's token.</Trans>;
    case "missing_access":
    case "missing_permissions":
      return <Trans>Permission missing: the bot may not read or post in the support channel.</Trans>;
    case "unsupported_channel":
      return <Trans>The support channel is neither a text nor a forum channel.</Trans>;
    default:
      return <Trans>Message Content intent off: the bot cannot read the team's replies.</Trans>;
  }
}

function NoticeText({ notice }: { notice: DeliveriesNotice }) {
  switch (notice.kind) {
    case "retried":
      return notice.what === "mail" ? (
        <Trans>The mail is due again and is being sent now.</Trans>
      ) : (
        <Trans>The support request is due again and is being delivered now.</Trans>
      );
    case "not-failed":
      return <Trans>That delivery has not failed (it may have been retried already).</Trans>;
    default:
      return <Trans>That retry could not be read.</Trans>;
  }
}

export function DeliveriesPage({
  lines,
  health,
  notice,
}: {
  lines: DeliveryLine[];
  health: DeliveryHealth;
  notice: DeliveriesNotice | null;
}) {
  const { t } = useLingui();
  const time = useConsoleTime();
  const failed = notice !== null && notice.kind !== "retried";
  return (
    <div>
      <ConsoleHeading title={t`Deliveries`}>
        <Trans>
          Support requests on their way to the team's chat and mail on its way to buyers, while they wait or after they
          failed.
        </Trans>
      </ConsoleHeading>
      {notice ? (
        <ConsoleNotice failed={failed}>
          <NoticeText notice={notice} />
        </ConsoleNotice>
      ) : null}
      <section aria-labelledby="delivery-health" className="mb-8 rounded-lg border border-border-strong bg-surface p-4">
        <h2 id="delivery-health" className="font-semibold text-foreground text-xl">
          <Trans>Where they go</Trans>
        </h2>
        <dl className="mt-3 space-y-2 text-sm">
          <div>
            <dt className="text-soft">
              <Trans>Discord bot</Trans>
            </dt>
            <dd className="text-foreground">
              <DiscordStateText state={health.discord.state} />
              {health.discord.since ? (
                <span className="block text-soft text-xs">
                  <Trans>Since {time(health.discord.since)}</Trans>
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-soft">
              <Trans>Support webhook</Trans>
            </dt>
            <dd className="text-foreground">
              {health.webhook ? <Trans>Configured.</Trans> : <Trans>Not configured.</Trans>}
            </dd>
          </div>
          <div>
            <dt className="text-soft">
              <Trans>SMTP server</Trans>
            </dt>
            <dd className="text-foreground">
              {health.smtp.server === null ? (
                <Trans>Not configured: mail is kept in the database.</Trans>
              ) : (
                <span className="break-all">{health.smtp.server}</span>
              )}
              <span className="block text-soft text-xs">
                {health.smtp.lastSentAt ? (
                  <Trans>Last mail accepted {time(health.smtp.lastSentAt)}.</Trans>
                ) : (
                  <Trans>No mail accepted yet.</Trans>
                )}
              </span>
              {health.smtp.lastFailure ? (
                <span className="block text-soft text-xs">
                  <Trans>Last refusal: {health.smtp.lastFailure.reason}</Trans>
                </span>
              ) : null}
            </dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="delivery-list">
        <h2 id="delivery-list" className="mb-3 font-semibold text-foreground text-xl">
          <Trans>Waiting or failed</Trans>
        </h2>
        {lines.length === 0 ? (
          <p className="text-soft">
            <Trans>Nothing is waiting: every request and mail went out.</Trans>
          </p>
        ) : (
          <ul className="space-y-3">
            {lines.map((line) => (
              <li key={`${line.kind}-${line.id}`} className="rounded-lg border border-border-strong bg-surface p-4">
                <p className="font-semibold text-foreground text-sm">
                  {line.kind === "mail" ? <Trans>Mail</Trans> : <Trans>Support request</Trans>} ·{" "}
                  <span className="font-mono">{line.what}</span> · <StatusText status={line.status} />
                </p>
                <p className="break-all font-mono text-soft text-xs">{line.id}</p>
                <p className="mt-1 text-sm">
                  <Trans>
                    Created {time(line.createdAt)} · {line.attempts} attempts
                  </Trans>
                </p>
                {line.lastError ? (
                  <p className="mt-1 break-words text-sm">
                    <Trans>Reason: {line.lastError}</Trans>
                  </p>
                ) : null}
                {line.status === "pending" ? (
                  <p className="mt-1 text-sm">
                    <Trans>Next attempt: {time(line.nextAttemptAt)}</Trans>
                  </p>
                ) : null}
                {line.status === "failed" ? (
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="kind" value={line.kind} />
                    <input type="hidden" name="id" value={line.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="retry"
                      className={buttonStyles.secondary}
                      aria-label={line.kind === "mail" ? t`Retry mail ${line.id}` : t`Retry support request ${line.id}`}
                    >
                      <Trans>Retry</Trans>
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function StatusText({ status }: { status: string }) {
  switch (status) {
    case "failed":
      return <Trans>failed</Trans>;
    case "no_channel":
      return <Trans>waiting for a chat channel</Trans>;
    default:
      return <Trans>waiting</Trans>;
  }
}
