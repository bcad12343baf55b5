import { data } from "react-router";

// The 404 renders in the root's ErrorBoundary, whose meta titles it ("Page not found") and marks it noindex.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
