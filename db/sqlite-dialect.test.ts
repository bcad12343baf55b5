import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeSqliteDialect } from "./sqlite-dialect";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the node:sqlite dialect", () => {
  it("takes the write lock when a transaction begins, so another process's write waits instead of breaking it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-sqlite-dialect-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    const { dialect } = createNodeSqliteDialect(file);
    const db = new Kysely<{ t: { n: number } }>({ dialect });
    await sql`CREATE TABLE t (n INTEGER)`.execute(db);
    const other = new DatabaseSync(file);
    other.exec("PRAGMA busy_timeout = 0");
    try {
      await db.transaction().execute(async (trx) => {
        // Only a read so far: under a deferred BEGIN the other connection could still write here.
        await trx.selectFrom("t").selectAll().execute();
        expect(() => other.exec("INSERT INTO t (n) VALUES (1)")).toThrow(/locked/);
        await trx.insertInto("t").values({ n: 2 }).execute();
      });
      other.exec("INSERT INTO t (n) VALUES (3)");
      expect((await db.selectFrom("t").select("n").orderBy("n").execute()).map((r) => r.n)).toEqual([2, 3]);
    } finally {
      other.close();
      await db.destroy();
    }
  });
});
