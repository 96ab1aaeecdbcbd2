// Overage across instances (decisions 0008, 0018): an instance killed while its billing event for a
// block is at the platform (the platform received it, the instance never learned so) leaves the
// block to the other instance, whose event carries the same idempotency key: one charge, one block.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { callSandboxProxy as call } from "@saved-items/sandbox/proxy-client";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { createTestDatabase, type TestDatabase } from "@saved-items/sandbox/test-databases";
import { PLANS } from "~/services/plans";
import { usagePeriod } from "~/services/usage/monthly-budget.server";
import { overageIdempotencyKey } from "~/services/usage/overage-decision";
import { listInstances, describeWithRedis } from "../support/instances";

const DEMO = "demo.myshopify.com";

let database: TestDatabase;
let sandbox: RunningSandbox;
let emulator: RemoteEmulator;
const seedDirectory = mkdtempSync(path.join(tmpdir(), "overage-instances-"));

beforeAll(async () => {
  // A database of the sandbox's own, which this file's per-test reset does not empty.
  database = await createTestDatabase(inject("testDatabases"));
  // The demo shop alone, with nothing made at start: the example seed's lists would spend budget
  // units, and an instance holding a block of them would serve the test's request without overage.
  const seed = path.join(seedDirectory, "seed.json");
  writeFileSync(seed, JSON.stringify({ shops: [{ domain: DEMO, plan: "scale", installed: true }] }));
  sandbox = await startSandbox({ SANDBOX_INSTANCES: "2", DATABASE_URL: database.url, SANDBOX_SEED: seed });
  emulator = createRemoteEmulator(/platform emulated at (\S+);/.exec(sandbox.output())![1]!);
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
  await database?.drop();
  rmSync(seedDirectory, { recursive: true, force: true });
});

const isSaved = (base: string, customer: string) =>
  call(base, "/proxy/api/is-saved", {
    customer,
    query: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/65000" },
  });

describeWithRedis("overage across instances", () => {
  test("an instance killed mid-send: the other sends the block's event with the same key, and the platform charges it once", async () => {
    const period = usagePeriod(new Date());
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      // The seeded demo shop is on Scale: its budget spent, overage on with a $10 monthly cap.
      await pool.query(`INSERT INTO "UsageCounter" ("shopDomain", "period", "count") VALUES ($1, $2, $3)`, [
        DEMO,
        period,
        PLANS.scale.monthlyRequests,
      ]);
      await pool.query(
        `INSERT INTO "OverageSetting" ("shopDomain", "enabled", "capCents", "updatedAt") VALUES ($1, true, 1000, now())`,
        [DEMO],
      );
      // The platform receives the first event and never answers it.
      await emulator.injectFault({ kind: "hangAfterWork", api: "app-events" });
      const [first, second] = await listInstances(sandbox.url);

      const killed = isSaved(first!.url, "65001").catch((error: unknown) => error);
      const charged = async () => (await emulator.billingCharges(DEMO)).events.map((event) => event.idempotencyKey);
      await expect.poll(async () => (await charged()).length, { timeout: 20_000 }).toBe(1);
      process.kill(first!.pid, "SIGKILL");
      expect(await killed).toBeInstanceOf(Error);

      expect((await isSaved(second!.url, "65002")).status).toBe(200);
      expect((await isSaved(sandbox.url, "65003")).status).toBe(200);
      const installed = await pool.query(`SELECT "installedAt" FROM "Shop" WHERE "domain" = $1`, [DEMO]);
      expect(await charged()).toEqual([overageIdempotencyKey(DEMO, installed.rows[0].installedAt, period, 1)]);
      expect((await emulator.billingCharges(DEMO)).chargedCents).toBe(100);
      const blocks = await pool.query(`SELECT "block", "priceCents" FROM "OverageBlock" WHERE "shopDomain" = $1`, [
        DEMO,
      ]);
      expect(blocks.rows).toEqual([{ block: 1, priceCents: 100 }]);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
