import type { AltchaWidgetElement } from "altcha";
import { loadCaptchaWidget } from "~/features/captcha/captcha-widget.client";

/** Where our own server issues proof-of-work challenges (the same endpoint the checkout uses). */
export const CAPTCHA_CHALLENGE_URL = "/api/captcha/challenge";

/** Solves one fresh challenge invisibly and returns the payload; each payload is accepted by the server once. */
export async function solveCaptcha(host: HTMLElement): Promise<string> {
  await loadCaptchaWidget();
  const widget = document.createElement("altcha-widget") as AltchaWidgetElement;
  widget.setAttribute("challenge", CAPTCHA_CHALLENGE_URL);
  widget.setAttribute("auto", "off");
  widget.setAttribute("display", "invisible");
  widget.setAttribute("name", "altcha");
  host.append(widget);
  try {
    const verified = new Promise<string>((resolve, reject) => {
      widget.addEventListener("statechange", (event) => {
        const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
        if (detail.state === "verified" && detail.payload) resolve(detail.payload);
        if (detail.state === "error" || detail.state === "expired") reject(new Error(`Captcha ${detail.state}`));
      });
    });
    // Custom elements upgrade asynchronously; wait until the widget exposes verify().
    await customElements.whenDefined("altcha-widget");
    const result = await Promise.race([widget.verify().then((r) => r?.payload), verified]);
    return result ?? (await verified);
  } finally {
    widget.remove();
  }
}
