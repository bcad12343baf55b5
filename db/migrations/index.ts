import type { Migration } from "kysely/migration";
import * as pg001 from "./postgres/001_status";
import * as pg002 from "./postgres/002_checkout";
import * as pg003 from "./postgres/003_support_requests";
import * as pg004 from "./postgres/004_reviews_cache";
import * as sqlite001 from "./sqlite/001_status";
import * as sqlite002 from "./sqlite/002_checkout";
import * as sqlite003 from "./sqlite/003_support_requests";
import * as sqlite004 from "./sqlite/004_reviews_cache";

// One entry per migration, same names in both dialects: tests/integration/migrations.test.ts keeps them in lockstep.
export const sqliteMigrations: Record<string, Migration> = {
  "001_status": sqlite001,
  "002_checkout": sqlite002,
  "003_support_requests": sqlite003,
  "004_reviews_cache": sqlite004,
};

export const postgresMigrations: Record<string, Migration> = {
  "001_status": pg001,
  "002_checkout": pg002,
  "003_support_requests": pg003,
  "004_reviews_cache": pg004,
};
