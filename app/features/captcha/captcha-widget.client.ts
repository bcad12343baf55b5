/**
 * Loads the ALTCHA widget on demand. The "external" build ships its styles as a CSS file and its proof-of-work
 * workers as separate scripts from our origin, so the strict CSP (no inline styles, worker-src 'self') holds.
 */
let widgetReady: Promise<void> | undefined;

export function loadCaptchaWidget(): Promise<void> {
  widgetReady ??= (async () => {
    await Promise.all([import("altcha/external"), import("altcha/altcha.css")]);
    const [{ default: Pbkdf2Worker }, { default: ShaWorker }] = await Promise.all([import("altcha/workers/pbkdf2?worker"), import("altcha/workers/sha?worker")]);
    for (const name of ["PBKDF2/SHA-256", "PBKDF2/SHA-384", "PBKDF2/SHA-512"]) globalThis.$altcha.algorithms.set(name, () => new Pbkdf2Worker());
    for (const name of ["SHA-256", "SHA-384", "SHA-512"]) globalThis.$altcha.algorithms.set(name, () => new ShaWorker());
  })().catch((error: unknown) => {
    widgetReady = undefined;
    throw error;
  });
  return widgetReady;
}
