import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DbDialect } from "../client";
import * as m001 from "./001_status";
import * as m002 from "./002_checkout";
import * as m003 from "./003_support_requests";
import * as m004 from "./004_reviews_cache";
import * as m005 from "./005_channel_pauses";
import * as m006 from "./006_order_shop_status";
import * as m007 from "./007_order_coupon";
import * as m008 from "./008_shop_catalogue";
import * as m009 from "./009_status_history";
import * as m010 from "./010_support_request_locale";
import * as m011 from "./011_mail_outbox";
import * as m012 from "./012_buyer_orders";
import * as m013 from "./013_buyer_sign_in";
import * as m014 from "./014_support_conversations";
import * as m015 from "./015_support_thread_reading";
import * as m016 from "./016_support_unseen_reply_mail";
import * as m017 from "./017_shop_price_history";
import * as m018 from "./018_staff_console";
import * as m019 from "./019_console_orders";
import * as m020 from "./020_support_inbox";
import * as m021 from "./021_audit_lookup_targets";
import * as m022 from "./022_support_proven_address";
import * as m023 from "./023_releases";
import * as m024 from "./024_support_inbox_search";
import * as m025 from "./025_content_overrides";

/** A migration runs on both dialects; the few that differ branch on the dialect inside `up`. */
interface DialectMigration {
  up(db: Kysely<unknown>, dialect: DbDialect): Promise<void>;
}

// One entry per migration, in order: tests/integration/migrations.test.ts checks both dialects end with the same schema.
const MIGRATIONS: Record<string, DialectMigration> = {
  "001_status": m001,
  "002_checkout": m002,
  "003_support_requests": m003,
  "004_reviews_cache": m004,
  "005_channel_pauses": m005,
  "006_order_shop_status": m006,
  "007_order_coupon": m007,
  "008_shop_catalogue": m008,
  "009_status_history": m009,
  "010_support_request_locale": m010,
  "011_mail_outbox": m011,
  "012_buyer_orders": m012,
  "013_buyer_sign_in": m013,
  "014_support_conversations": m014,
  "015_support_thread_reading": m015,
  "016_support_unseen_reply_mail": m016,
  "017_shop_price_history": m017,
  "018_staff_console": m018,
  "019_console_orders": m019,
  "020_support_inbox": m020,
  "021_audit_lookup_targets": m021,
  "022_support_proven_address": m022,
  "023_releases": m023,
  "024_support_inbox_search": m024,
  "025_content_overrides": m025,
};

export function migrationsFor(dialect: DbDialect): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, migration]) => [
      name,
      { up: (db: Kysely<unknown>) => migration.up(db, dialect) },
    ]),
  );
}

export const sqliteMigrations = migrationsFor("sqlite");
export const postgresMigrations = migrationsFor("postgres");
