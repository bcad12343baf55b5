declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}

/** A boot module compiled into the text of an inline script (`app/features/layout/boot/boot-scripts.build.ts`). */
declare module "*?boot-script" {
  const script: string;
  export default script;
}
