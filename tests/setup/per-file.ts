// The emulator's interception must be installed before anything imports app/shopify.server.ts:
// the platform's node adapter captures globalThis.fetch on first import.
import { emulator, platformServer } from "../support/platform";
import { Prisma } from "@prisma/client";
import { afterAll, afterEach, beforeEach, expect, inject } from "vitest";
import { createTestDatabase } from "./database";
import { TEST_ENV } from "./test-env";

Object.assign(process.env, TEST_ENV);
// Before any app module is imported: app/db.server.ts connects to DATABASE_URL when first loaded.
const database = await createTestDatabase(inject("testDatabases"));
process.env.DATABASE_URL = database.url;

// Every model's table, from the schema itself, so a new model is never left out of the reset.
const tables = Prisma.dmmf.datamodel.models.map((model) => `"${model.dbName ?? model.name}"`).join(", ");

beforeEach(async () => {
  emulator.reset();
  const { clearProcessCaches } = await import("~/lib/process-caches.server");
  clearProcessCaches();
  const { default: db } = await import("~/db.server");
  await db.$executeRawUnsafe(`TRUNCATE ${tables}`);
});

afterEach(() => {
  // Every document the app sent must exist in the real published schema.
  expect(emulator.schemaViolations).toEqual([]);
  platformServer.resetHandlers();
});

afterAll(async () => {
  platformServer.close();
  const { closeDatabase } = await import("~/db.server");
  await closeDatabase();
  await database.drop();
});
