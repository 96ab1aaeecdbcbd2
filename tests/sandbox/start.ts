// The sandbox: the production build of the real app, served over HTTP, with the platform replaced
// by the in-process emulator. It lives outside app/ so no production build can ever include it.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setupServer } from "msw/node";
import { createPlatformEmulator } from "../emulator";
import { applySandboxDefaults, repoRoot } from "./config";
import { loadSeed } from "./seed";

if (process.env.NODE_ENV === "production") {
  console.error("Refusing to start the sandbox with NODE_ENV=production: it replaces the platform with an emulator.");
  process.exit(1);
}
applySandboxDefaults();

const seedFile = path.resolve(process.env.SANDBOX_SEED!);
const seed = loadSeed(seedFile);
const buildFile = path.join(repoRoot, "build/server/index.js");
if (!existsSync(buildFile)) {
  console.error("No production build found: run `npm run sandbox`, which builds first.");
  process.exit(1);
}

// The platform's node adapter captures globalThis.fetch when the app is imported: intercept first.
const emulator = createPlatformEmulator({
  clientId: process.env.SHOPIFY_API_KEY!,
  clientSecret: process.env.SHOPIFY_API_SECRET!,
});
setupServer(...emulator.handlers).listen({ onUnhandledRequest: "error" });

// Every start begins from the seed: a fresh database (the default pglite:memory) and a fresh
// emulated platform. The app connects to DATABASE_URL when the build is imported, so point it at the
// embedded server first.
const { parseDatabaseUrl } = await import("../../app/config/database-url");
const { startEmbeddedPostgres, stopOnTermination } = await import("../../app/lib/database/embedded.server");
const { applyMigrations } = await import("../../app/lib/database/migrations.server");
const { createPool } = await import("../../app/lib/database/pool.server");
const target = parseDatabaseUrl(process.env.DATABASE_URL!);
if (target.kind === "embedded" && target.dataDir === "memory") {
  // A copy of the tests' cached dump of a freshly migrated database: initdb takes seconds.
  const { createTestDatabase, embeddedDumps } = await import("../setup/database");
  process.env.DATABASE_URL = (await createTestDatabase({ kind: "embedded", ...(await embeddedDumps()) })).url;
} else if (target.kind === "embedded") {
  const embedded = await startEmbeddedPostgres({ dataDir: target.dataDir });
  stopOnTermination(embedded.stop);
  process.env.DATABASE_URL = embedded.url;
}
const pool = createPool(process.env.DATABASE_URL!, { max: 1 });
await applyMigrations(pool);

const { PrismaClient } = await import("@prisma/client");
const { PrismaPg } = await import("@prisma/adapter-pg");
const db = new PrismaClient({ adapter: new PrismaPg(pool) });
// Upserts: a kept data directory, or a second sandbox on the same database, starts from the seed too.
for (const shop of seed.shops) {
  // The platform issues an expiring offline token with a refresh token, as at a real install.
  const { adminCredentials } = emulator.addShop(shop);
  const record = { plan: shop.plan, uninstalledAt: shop.installed ? null : new Date() };
  await db.shop.upsert({ where: { domain: shop.domain }, create: { domain: shop.domain, ...record }, update: record });
  if (shop.installed && adminCredentials) {
    const session = {
      shop: shop.domain,
      state: "",
      isOnline: false,
      accessToken: adminCredentials.accessToken,
      scope: adminCredentials.scope,
      expires: adminCredentials.expiresAt ? new Date(adminCredentials.expiresAt) : null,
      refreshToken: adminCredentials.refreshToken,
      refreshTokenExpires: adminCredentials.refreshTokenExpiresAt ? new Date(adminCredentials.refreshTokenExpiresAt) : null,
    };
    const id = `offline_${shop.domain}`;
    await db.session.upsert({ where: { id }, create: { id, ...session }, update: session });
  }
}
await db.$disconnect();
await pool.end();

// Served by the production server module itself (server/http-server.ts, what `npm start` runs), with
// only the storefront added in front of the app, so the sandbox and production cannot drift.
const { createAppServer, exitOnSignals } = await import("../../server/http-server");
const { loadServerConfig } = await import("../../server/config");
const build = await import(pathToFileURL(buildFile).href);
// The storefront a shopper sees (theme blocks, app proxy), before the app's own routes.
const { createStorefrontRouter } = await import("./storefront/router");
const appServer = createAppServer({
  build,
  clientDir: path.join(repoRoot, "build/client"),
  config: loadServerConfig(process.env),
  beforeApp: [createStorefrontRouter({ build, seed, apiSecret: process.env.SHOPIFY_API_SECRET! })],
});
exitOnSignals(appServer);

const { port } = await appServer.listen();
{
  const url = `http://localhost:${port}`;
  console.log(`\nSaved Items sandbox listening on ${url} (platform emulated in-process; seed: ${seedFile})\n`);
  for (const shop of seed.shops) {
    const customers = shop.customers.map((c) => c.id.split("/").pop()).join(", ") || "none";
    console.log(`  ${shop.domain}  plan=${shop.plan}  installed=${shop.installed}  customers=${customers}`);
  }
  console.log(`
Storefront (theme app extension, app proxy): ${url}/collections/all  (French: ${url}/fr/collections/all)
  logged out by default; log in as a seed customer at ${url}/account/login (e.g. ?customer=1001), out at /account/logout
`);
  // The signing command builds URLs for the default port unless told otherwise.
  const sign = `${port === 3000 ? "" : `PORT=${port} `}npm run -s sign --`;
  console.log(`Proxy signatures go stale after 90 s; sign a fresh URL for a customer and call it:
  curl "$(${sign} '/proxy/api/list?context=wishlist' --customer 1001)"
  curl -X POST -H 'Content-Type: application/json' \\
    -d '{"context":"wishlist","entityType":"product","entityGid":"gid://shopify/Product/1","source":"curl"}' \\
    "$(${sign} /proxy/api/save --customer 1001)"

Headless: exchange a seeded customer token, then call /api/headless/* with data.authorization:
  curl -X POST -H 'Content-Type: application/json' -d '{"shop":"demo.myshopify.com","customerAccountAccessToken":"sandbox-cat-1001"}' ${url}/api/headless/auth/exchange
`);
}
