// @lingui/react imports the pre-React-18 shim of this hook (~0.8 KB gzip); React 19 has it built in.
export { useSyncExternalStore } from "react";
