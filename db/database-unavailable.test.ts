import os from "node:os";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { freePort } from "../tests/support/app-server";
import { isDatabaseUnavailableError, openDatabase } from "./client";

describe("isDatabaseUnavailableError", () => {
  it("recognises the error of a PostgreSQL server that refuses connections", async () => {
    const port = await freePort();
    const handle = openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, dataDir: os.tmpdir() });
    try {
      const error = await sql`SELECT 1`.execute(handle.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      expect(isDatabaseUnavailableError(error)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it("tells a restarting server and a lost connection from a wrong query", () => {
    expect(
      isDatabaseUnavailableError(
        Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailableError(Object.assign(new Error("the database system is starting up"), { code: "57P03" })),
    ).toBe(true);
    expect(isDatabaseUnavailableError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailableError(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(
      isDatabaseUnavailableError(Object.assign(new Error('relation "nope" does not exist'), { code: "42P01" })),
    ).toBe(false);
    expect(isDatabaseUnavailableError(Object.assign(new Error("duplicate key value"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailableError(new Error("anything else"))).toBe(false);
    expect(isDatabaseUnavailableError("ECONNREFUSED")).toBe(false);
  });
});
