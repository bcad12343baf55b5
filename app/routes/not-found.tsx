import { data } from "react-router";

export const meta = () => [{ title: "Page not found | Kestrel Software" }, { name: "robots", content: "noindex" }];

export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
