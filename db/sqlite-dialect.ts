import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { SqliteDialect } from "kysely";

/** Kysely's SqliteDialect expects better-sqlite3's shape; node:sqlite takes parameters spread, not as one array. */
export function createNodeSqliteDialect(file: string): { dialect: SqliteDialect; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;",
  );
  const database = {
    close: () => raw.close(),
    prepare(sql: string) {
      // Transactions take the write lock when they begin: a read-then-write transaction in WAL mode is otherwise refused
      // at once ("database is locked", busy_timeout or not) when another process (the CLI, an instance) wrote meanwhile.
      const stmt = raw.prepare(/^\s*begin\s*$/i.test(sql) ? "begin immediate" : sql);
      return {
        reader: stmt.columns().length > 0,
        all: (p: ReadonlyArray<unknown>) => stmt.all(...(p as SQLInputValue[])),
        run: (p: ReadonlyArray<unknown>) => {
          const r = stmt.run(...(p as SQLInputValue[]));
          return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
        },
        iterate: (p: ReadonlyArray<unknown>) => stmt.iterate(...(p as SQLInputValue[])),
      };
    },
  };
  return { dialect: new SqliteDialect({ database }), raw };
}
