import { afterEach, describe, expect, it } from "vitest";
import { migrateAndSeed } from "../../db/client";
import { getContent } from "~/features/content/content.server";
import { seedStatusEntries } from "~/features/status/status.server";
import { createTestDatabase, isPostgresReachable, type TestDatabase } from "../support/databases";

const INSTANCES = 4;
const ROUNDS = 5;

describe("instances booting together on a fresh PostgreSQL database", () => {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of created.splice(0)) await database.drop();
  });

  it(`migrates and seeds once when ${INSTANCES} instances boot at the same moment (${ROUNDS} rounds)`, async (ctx) => {
    if (!(await isPostgresReachable())) ctx.skip("PostgreSQL is not reachable on 127.0.0.1:5432");
    const seed = getContent().status;
    for (let round = 0; round < ROUNDS; round++) {
      const database = await createTestDatabase("postgres", { migrated: false });
      created.push(database);
      // One pool per instance, as separate processes would have.
      const handles = Array.from({ length: INSTANCES }, () => database.open());
      const outcomes = await Promise.allSettled(
        handles.map((handle) => migrateAndSeed(handle, (db) => seedStatusEntries(db, seed))),
      );
      const errors = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String(outcome.reason)] : []));
      expect(errors, `round ${round + 1}`).toEqual([]);
      const rows = await database.handle.db
        .selectFrom("status_entries")
        .select(["name", "sort_order"])
        .orderBy("sort_order")
        .execute();
      expect(rows).toEqual(seed.map((entry, index) => ({ name: entry.name, sort_order: index })));
    }
  });
});
