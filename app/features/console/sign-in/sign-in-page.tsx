import { Trans, useLingui } from "@lingui/react/macro";
import { ConsoleHeading } from "../shell/console-heading";
import { PasskeyButton } from "~/features/staff/passkey-button";

/** Passkeys belong to a host name: on an IP address they cannot work, and the page says what does. */
function AddressHostNotice({ host }: { host: string }) {
  return (
    <p role="note" className="mb-6 rounded-lg border border-warning/40 bg-warning/10 p-4 text-sm text-foreground">
      <Trans>
        This console is served at {host}, an IP address. Passkeys need a host name: set PUBLIC_URL to your shop's
        domain. On one machine, http://localhost:3000 works.
      </Trans>
    </p>
  );
}

export function SignInPage({
  noStaffYet,
  addressHost,
  signedOut,
}: {
  noStaffYet: boolean;
  addressHost: string | null;
  signedOut: boolean;
}) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-md">
      <ConsoleHeading title={t`Sign in to the console`}>
        <Trans>Use the passkey you created for this shop. There is no password.</Trans>
      </ConsoleHeading>
      {signedOut ? (
        <p role="status" className="mb-6 text-sm text-success">
          <Trans>You are signed out.</Trans>
        </p>
      ) : null}
      {addressHost ? <AddressHostNotice host={addressHost} /> : null}
      {noStaffYet ? (
        <section
          aria-labelledby="first-owner-heading"
          className="mb-6 rounded-lg border border-border-strong bg-surface p-4"
        >
          <h2 id="first-owner-heading" className="font-semibold text-foreground">
            <Trans>No one can sign in yet</Trans>
          </h2>
          <p className="mt-2 text-sm text-soft">
            <Trans>Create the first owner on the server, then open the link it prints:</Trans>
          </p>
          <pre className="mt-2 whitespace-pre-wrap break-all rounded bg-background p-3 text-sm text-foreground">
            <code>npm run cli -- staff invite you@example.com --role owner</code>
          </pre>
        </section>
      ) : null}
      {addressHost ? null : (
        <PasskeyButton ceremony="sign-in">
          <Trans>Sign in with a passkey</Trans>
        </PasskeyButton>
      )}
      <p className="mt-8 text-sm text-soft">
        <Trans>Lost your passkey? Ask an owner for a new setup link: it adds a passkey to your account.</Trans>
      </p>
    </div>
  );
}

export function SetupPage({
  person,
  refused,
  addressHost,
}: {
  person: { email: string; existing: boolean } | null;
  refused: "used" | "expired" | "unknown" | null;
  addressHost: string | null;
}) {
  const { t } = useLingui();
  if (!person) {
    return (
      <div className="mx-auto max-w-md">
        <ConsoleHeading title={t`This setup link does not work`}>
          {refused === "used" ? (
            <Trans>It was already used. A setup link works once.</Trans>
          ) : refused === "expired" ? (
            <Trans>It has expired. A setup link works for one hour.</Trans>
          ) : (
            <Trans>It is not a setup link this shop made, or it has run out.</Trans>
          )}
        </ConsoleHeading>
        <p className="text-soft">
          <Trans>Ask an owner for a new link, or sign in if you already have a passkey.</Trans>
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      <ConsoleHeading title={t`Create a passkey`}>
        <Trans>
          For {person.email}. Your device keeps the passkey (with your fingerprint, face or screen lock) and signs you
          in with it; there is no password to remember.
        </Trans>
      </ConsoleHeading>
      {addressHost ? (
        <AddressHostNotice host={addressHost} />
      ) : (
        <PasskeyButton ceremony="register">
          <Trans>Create a passkey</Trans>
        </PasskeyButton>
      )}
    </div>
  );
}
