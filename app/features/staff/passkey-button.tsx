import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";

type Ceremony = "sign-in" | "register";

async function post(path: string, body: unknown): Promise<{ ok: boolean; json: Record<string, unknown> }> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
    credentials: "same-origin",
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, json };
}

type WebAuthn = typeof import("@simplewebauthn/browser");

/**
 * What every passkey button keeps: busy while a ceremony runs, what went wrong, what was done; `step` runs one
 * ceremony with the WebAuthn library (loaded on the first press) and says what a browser's refusal means.
 */
function useCeremony() {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function step(work: (webauthn: WebAuthn) => Promise<void>) {
    setBusy(true);
    setProblem(null);
    setDone(null);
    try {
      const webauthn = await import("@simplewebauthn/browser");
      if (!webauthn.browserSupportsWebAuthn()) {
        setProblem(t`This browser cannot use passkeys. Try a current version of Chrome, Edge, Safari or Firefox.`);
        return;
      }
      await work(webauthn);
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      setProblem(
        name === "NotAllowedError" || name === "AbortError"
          ? t`The passkey dialog was closed before it finished. Press the button to try again.`
          : name === "InvalidStateError"
            ? t`This device already holds a passkey for your account.`
            : t`That did not work. Please try again.`,
      );
    } finally {
      setBusy(false);
    }
  }

  return { busy, problem, done, setProblem, setDone, step };
}

/** Under a passkey button: why it needs JavaScript, the ceremony's progress or result, and what went wrong. */
function CeremonyStatus({ busy, done, problem }: { busy: boolean; done: string | null; problem: string | null }) {
  return (
    <>
      <noscript>
        <p className="mt-2 text-sm text-soft">
          <Trans>Passkeys need JavaScript: turn it on for this site to continue.</Trans>
        </p>
      </noscript>
      <p role="status" className="mt-3 text-sm text-soft">
        {busy ? <Trans>Waiting for your passkey…</Trans> : done}
      </p>
      {problem ? (
        <p role="alert" className="mt-1 text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/**
 * The one button of a passkey ceremony: asks the server for a challenge, lets the browser's passkey dialog answer it,
 * and sends the answer back. The WebAuthn library is loaded on the first press, so the page itself stays small.
 */
export function PasskeyButton({
  ceremony,
  children,
  name,
}: {
  ceremony: Ceremony;
  children: React.ReactNode;
  name?: string;
}) {
  const { t } = useLingui();
  const { locale } = useLocale();
  const revalidator = useRevalidator();
  const { busy, problem, done, setProblem, setDone, step } = useCeremony();

  const run = () =>
    step(async (webauthn) => {
      const base = `/api/admin/passkeys/${ceremony}`;
      const options = await post(`${base}/options`, {});
      if (!options.ok) {
        setProblem(
          typeof options.json.error === "string"
            ? options.json.error
            : t`The console could not start. Please try again.`,
        );
        return;
      }
      const optionsJSON = options.json.options as never;
      const credential =
        ceremony === "sign-in"
          ? await webauthn.startAuthentication({ optionsJSON })
          : await webauthn.startRegistration({ optionsJSON });
      const result = await post(base, { credential, locale, name });
      if (!result.ok) {
        setProblem(typeof result.json.error === "string" ? result.json.error : t`That did not work. Please try again.`);
        return;
      }
      if (typeof result.json.redirect === "string") {
        window.location.assign(result.json.redirect);
        return;
      }
      setDone(t`Passkey added.`);
      revalidator.revalidate();
    });

  return (
    <div>
      <button
        type="button"
        onClick={() => void run()}
        disabled={busy}
        aria-busy={busy}
        className={buttonStyles.primary}
      >
        {children}
      </button>
      <CeremonyStatus busy={busy} done={done} problem={problem} />
    </div>
  );
}

/**
 * Adding a passkey to a signed-in account (issue 42): first a ceremony with one of the account's passkeys, which earns
 * registration options bound to this session for 5 minutes and one use; then the new passkey, on this device or another.
 */
export function AddPasskey() {
  const { t } = useLingui();
  const { locale } = useLocale();
  const revalidator = useRevalidator();
  const { busy, problem, done, setProblem, setDone, step } = useCeremony();
  const [earned, setEarned] = useState<unknown>(null);

  const refused = (json: Record<string, unknown>) =>
    setProblem(typeof json.error === "string" ? json.error : t`That did not work. Please try again.`);

  const confirm = () =>
    step(async (webauthn) => {
      const options = await post("/api/admin/passkeys/confirm/options", {});
      if (!options.ok) return refused(options.json);
      const credential = await webauthn.startAuthentication({ optionsJSON: options.json.options as never });
      const result = await post("/api/admin/passkeys/confirm", { credential });
      if (!result.ok) return refused(result.json);
      setEarned(result.json.options);
      setDone(t`Confirmed. Add the new passkey within 5 minutes.`);
    });

  const add = () =>
    step(async (webauthn) => {
      const credential = await webauthn.startRegistration({ optionsJSON: earned as never });
      const result = await post("/api/admin/passkeys/register", { credential, locale });
      // The earned options are spent either way: a second try starts with a fresh confirmation.
      setEarned(null);
      if (!result.ok) return refused(result.json);
      setDone(t`Passkey added.`);
      revalidator.revalidate();
    });

  return (
    <div>
      {earned === null ? (
        <>
          <p className="mb-3 text-sm text-soft">
            <Trans>To add a passkey, first confirm it is you with one of the passkeys you have.</Trans>
          </p>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={busy}
            aria-busy={busy}
            className={buttonStyles.primary}
          >
            <Trans>Confirm with a passkey</Trans>
          </button>
        </>
      ) : (
        <button
          type="button"
          onClick={() => void add()}
          disabled={busy}
          aria-busy={busy}
          className={buttonStyles.primary}
        >
          <Trans>Add a passkey</Trans>
        </button>
      )}
      <CeremonyStatus busy={busy} done={done} problem={problem} />
    </div>
  );
}
