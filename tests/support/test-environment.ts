import { afterAll, beforeAll } from "vitest";
import { closeDatabase, initDatabase } from "~/platform/db.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { configureLogger } from "~/platform/logger.server";
import { makeDataDir } from "./app-server";
import { createTestDatabase, type TestDatabase } from "./databases";

/** The enclosing describe's database: fresh and migrated before its tests, dropped after them. */
export function useTestDatabase(dialect: "sqlite" | "postgres"): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.drop();
  });
  return () => {
    if (!database) throw new Error("the test database is made in beforeAll");
    return database;
  };
}

/**
 * The app as a server runs it, for tests that call its loaders and actions directly: the enclosing describe's fresh
 * database opened as the app's own (`getDb()`), the environment parsed from `env` (logs silent), closed after.
 */
export function useAppEnvironment(
  dialect: "sqlite" | "postgres",
  env: Record<string, string> = {},
): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    resetEnvForTests(
      parseEnv({
        // Secrets made on first use live in DATA_DIR on PostgreSQL too: a fresh one per describe.
        DATA_DIR: dialect === "sqlite" ? database.dataDir : makeDataDir("kestrel-app-"),
        DATABASE_URL: database.url ?? "",
        LOG_LEVEL: "silent",
        ...env,
      }),
    );
    configureLogger();
    await initDatabase(async () => {});
  });
  afterAll(async () => {
    await closeDatabase();
    resetEnvForTests(undefined);
    await database?.drop();
  });
  return () => {
    if (!database) throw new Error("the app's database is made in beforeAll");
    return database;
  };
}
