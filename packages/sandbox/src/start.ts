// The sandbox: the real production server (build/server.js, what `npm start` runs) serving shoppers,
// headless backends and extensions, with the platform replaced by an emulator running as a process
// of its own and reached over HTTP, an embedded PostgreSQL, and, with SANDBOX_INSTANCES=2, two app
// instances coordinating through Redis behind a round-robin front. Every helper listens on a free
// loopback port and stops with the sandbox. It lives outside app/ so no production build contains it.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { createRemoteEmulator } from "@saved-items/platform-emulator/remote";
import { startEmulatorProcess } from "@saved-items/platform-emulator/process";
import { applySandboxDefaults, recordRunningSandbox, repoRoot, sandboxLogFile } from "./config";
import { openSandboxDatabase, seedDatabase } from "./database";
import { startFront } from "./front";
import { startInstancePool } from "./pool";
import { connectSharedRedis } from "./redis";
import { loadSeed } from "./seed";
import { seedCustomerLists, type SeededShare } from "./seed-lists";

if (process.env.NODE_ENV === "production") {
  console.error("Refusing to start the sandbox with NODE_ENV=production: it replaces the platform with an emulator.");
  process.exit(1);
}
applySandboxDefaults();

const seedFile = path.resolve(process.env.SANDBOX_SEED!);
const seed = loadSeed(seedFile);
for (const file of ["build/server.js", "build/server/index.js"]) {
  if (!existsSync(path.join(repoRoot, file))) {
    console.error(`No production build (${file}): run \`npm run sandbox\`, which builds first.`);
    process.exit(1);
  }
}
const instanceCount = Number(process.env.SANDBOX_INSTANCES ?? 1);
if (!Number.isInteger(instanceCount) || instanceCount < 1 || instanceCount > 8) {
  console.error("SANDBOX_INSTANCES must be a whole number from 1 to 8.");
  process.exit(1);
}

/** The embedded admin's pages (app/routes/app.*), linked logged in from the banner. */
const ADMIN_PAGES = ["/app", "/app/plans", "/app/setup", "/app/insights"];

// Stopped last-started first: the front, the instances, then what they use.
const stops: (() => Promise<void>)[] = [];
// Aborted as stopping begins: an instance that exits from then on (Ctrl-C reaches the whole
// process group) is not started again.
const shutdown = new AbortController();
let stopping: Promise<void> | undefined;
const stopAll = () =>
  (stopping ??= (async () => {
    shutdown.abort();
    for (const stop of stops.reverse()) await stop().catch((error) => console.error("[sandbox] stopping:", error));
  })());
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(0)));
}

try {
  const emulator = await startEmulatorProcess({
    setup: { module: path.join(import.meta.dirname, "emulator-setup.ts"), argument: seedFile },
    clientId: process.env.SHOPIFY_API_KEY!,
    clientSecret: process.env.SHOPIFY_API_SECRET!,
    // The app's METAOBJECT_ENTRY_CAP (its instances read it from this environment) caps the
    // emulated platform too, so a low one shows the app at the cap.
    metaobjectEntryCap: process.env.METAOBJECT_ENTRY_CAP ? Number(process.env.METAOBJECT_ENTRY_CAP) : undefined,
  });
  stops.push(emulator.stop);

  const database = await openSandboxDatabase(process.env.DATABASE_URL!);
  stops.push(database.stop);
  await seedDatabase(database.url, seed, createRemoteEmulator(emulator.url));

  const redis =
    instanceCount > 1 ? await connectSharedRedis(process.env.REDIS_URL, `sandbox-${randomUUID()}`) : undefined;
  if (redis) stops.push(redis.clear);

  const instanceEnv = {
    DATABASE_URL: database.url,
    SANDBOX_PLATFORM_URL: emulator.url,
    // The front forwards the shopper's address; the instance trusts exactly that one hop.
    TRUST_PROXY: "1",
    ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix } : {}),
  };
  const pool = await startInstancePool(instanceCount, instanceEnv, shutdown.signal);
  stops.push(pool.stop);

  const front = await startFront({
    port: Number(process.env.PORT),
    instances: pool.targets,
    seed,
    apiKey: process.env.SHOPIFY_API_KEY!,
    apiSecret: process.env.SHOPIFY_API_SECRET!,
    emulatorUrl: emulator.url,
    control: { instances: pool.report, rollingRestart: pool.rollingRestart },
  });
  stops.push(front.close);
  const shares = await seedCustomerLists(`http://127.0.0.1:${process.env.PORT}`, seed);
  const forgetRunning = recordRunningSandbox(Number(process.env.PORT));
  stops.push(async () => forgetRunning());
  printBanner(instanceCount, emulator.url, shares);
} catch (error) {
  console.error("[sandbox] could not start:", error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
}

function printBanner(instances: number, emulatorUrl: string, shares: SeededShare[]): void {
  const port = Number(process.env.PORT);
  const url = `http://localhost:${port}`;
  console.log(
    `\nSaved Items sandbox listening on ${url} (${instances} app instance${instances > 1 ? "s behind a round-robin front, coordinating through Redis" : ""}; platform emulated at ${emulatorUrl}; seed: ${seedFile})\n`,
  );
  for (const shop of seed.shops) {
    const customers = shop.customers.map((c) => c.id.split("/").pop()).join(", ") || "none";
    console.log(
      `  ${shop.domain}  plan=${shop.plan}  installed=${shop.installed}  tier=${shop.tier ?? "standard"}  customers=${customers}`,
    );
  }
  console.log(`
Storefront (theme app extension, app proxy): ${url}/collections/all  (French: ${url}/fr/collections/all)
  logged out by default; log in as a seed customer at ${url}/account/login (e.g. ?customer=1001), out at /account/logout
${shares.map((share) => `Shared list "${share.list}" of customer ${share.customer} (${share.shop}): ${url}${share.path}`).join("\n")}
Platform usage (sandbox only): ${url}/__sandbox/platform-usage[?shop=demo.myshopify.com]

Embedded admin, logged in (each link signs a fresh session; ?shop=<a seeded shop> for another):
${ADMIN_PAGES.map((page) => `  ${page.padEnd(13)} ${url}/__sandbox/admin${page}`).join("\n")}

Request log: ${sandboxLogFile() ?? "this terminal (SANDBOX_LOG=-)"}${sandboxLogFile() ? "  (tail -f it; SANDBOX_LOG=- prints it here)" : ""}
`);
  // `npm run sign` finds this sandbox's port itself (the sandbox started last).
  const sign = "npm run -s sign --";
  console.log(`Proxy signatures go stale after 90 s; sign a fresh URL for a customer and call it:
  curl "$(${sign} '/proxy/api/list?context=wishlist' --customer 1001)"
  curl -X POST -H 'Content-Type: application/json' \\
    -d '{"context":"wishlist","entityType":"product","entityGid":"gid://shopify/Product/1","source":"curl"}' \\
    "$(${sign} /proxy/api/save --customer 1001)"

Headless: exchange a seeded customer token, then call /api/headless/* with data.authorization:
  curl -X POST -H 'Content-Type: application/json' -d '{"shop":"demo.myshopify.com","customerAccountAccessToken":"sandbox-cat-1001"}' ${url}/api/headless/auth/exchange
`);
}
