// Zod probes for eval support with `Function("")` when its first object schema is built, which our CSP (no
// 'unsafe-eval') reports as a violation. Jitless mode skips the probe. This module is root.tsx's first import, and
// vite.config.ts puts it in the framework chunk, which every chunk holding zod imports, so it runs before any schema
// is built; it writes zod's global config object (what z.config() writes) so the framework chunk need not include zod.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
