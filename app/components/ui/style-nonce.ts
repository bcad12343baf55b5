declare global {
  // Read by get-nonce, which Radix's scroll lock uses to stamp its <style> element (CSP: style-src carries the nonce).
  var __webpack_nonce__: string | undefined;
}

/** Hands the page's CSP nonce (as stamped on our scripts) to a dialog's scroll-lock style element. */
export function shareStyleNonce() {
  if (globalThis.__webpack_nonce__) return;
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  if (nonce) globalThis.__webpack_nonce__ = nonce;
}
