import { register } from "node:module";

register("./lingui-macros.hooks.mjs", import.meta.url);
