import { data } from "react-router";

// Any other path under /admin: the console's own 404 (its layout's boundary), never the shop's page.
export function loader() {
  throw data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export default function ConsoleNotFound() {
  return null;
}
