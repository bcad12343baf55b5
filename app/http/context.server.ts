import { createContext, RouterContextProvider } from "react-router";

/** Per-request CSP nonce, made by the Express app and stamped on every script by entry.server. */
export const nonceContext = createContext<string>("");

export function createLoadContext(nonce: string) {
  const context = new RouterContextProvider();
  context.set(nonceContext, nonce);
  return context;
}
