// The emulator's interception must be installed before anything imports app/shopify.server.ts:
// the platform's node adapter captures globalThis.fetch on first import.
import { emulator, platformServer } from "../support/platform";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, expect, inject } from "vitest";
import { TEST_ENV } from "./test-env";

Object.assign(process.env, TEST_ENV);
const template = inject("templateDatabase");
const database = path.join(path.dirname(template), `file-${process.pid}-${Math.random().toString(36).slice(2)}.sqlite`);
copyFileSync(template, database);
process.env.DATABASE_URL = `file:${database}`;

beforeEach(async () => {
  emulator.reset();
  const { clearProcessCaches } = await import("~/lib/process-caches.server");
  clearProcessCaches();
  const { default: db } = await import("~/db.server");
  await db.usageCounter.deleteMany();
  await db.shop.deleteMany();
  await db.session.deleteMany();
});

afterEach(() => {
  // Every document the app sent must exist in the real published schema.
  expect(emulator.schemaViolations).toEqual([]);
  platformServer.resetHandlers();
});

afterAll(() => {
  platformServer.close();
});
