import { createContext, RouterContextProvider } from "react-router";
import { clientAddressContext } from "~/platform/request-context";

/** Per-request CSP nonce, made by the Express app and stamped on every script by entry.server. */
export const nonceContext = createContext<string>("");

export function createLoadContext(nonce: string, clientAddress = "unknown") {
  const context = new RouterContextProvider();
  context.set(nonceContext, nonce);
  context.set(clientAddressContext, clientAddress);
  return context;
}
