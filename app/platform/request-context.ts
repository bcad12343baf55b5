import { createContext } from "react-router";

/** The client's address as the trusted proxies report it (Express's `req.ip`), for per-client limits in actions. */
export const clientAddressContext = createContext<string>("unknown");
