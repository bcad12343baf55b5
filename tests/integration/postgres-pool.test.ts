import os from "node:os";
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client";
import { isPostgresReachable, POSTGRES_ADMIN_URL } from "../support/databases";

const reachable = await isPostgresReachable();

describe.skipIf(!reachable)("PostgreSQL pool (skipped without PostgreSQL on 127.0.0.1:5432)", () => {
  it("survives the server ending an idle connection, reports it, and reconnects on the next query", async () => {
    let reported: (error: Error) => void = () => {};
    const idleError = new Promise<Error>((resolve) => (reported = resolve));
    const handle = openDatabase({
      databaseUrl: POSTGRES_ADMIN_URL,
      dataDir: os.tmpdir(),
      onIdleError: (error) => reported(error),
    });
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    try {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(handle.db);
      await admin.connect();
      // As a restart or DROP DATABASE ... WITH (FORCE) does to the pool's idle client.
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
      expect(await idleError).toMatchObject({ code: "57P01" });
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
