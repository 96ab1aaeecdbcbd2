// The sandbox: the production build of the real app, served over HTTP, with the platform replaced
// by the in-process emulator. It lives outside app/ so no production build can ever include it.
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
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
const emulator = createPlatformEmulator();
setupServer(...emulator.handlers).listen({ onUnhandledRequest: "error" });

// Every start begins from the seed: a fresh database and a fresh emulated platform.
const databaseFile = new URL(process.env.DATABASE_URL!).pathname;
if (process.env.DATABASE_URL!.startsWith("file:")) {
  rmSync(databaseFile, { force: true });
  const { migrateDatabase } = await import("../setup/database");
  migrateDatabase(databaseFile);
}

const { PrismaClient } = await import("@prisma/client");
const { PrismaLibSQL } = await import("@prisma/adapter-libsql");
const db = new PrismaClient({ adapter: new PrismaLibSQL({ url: process.env.DATABASE_URL! }) });
for (const shop of seed.shops) {
  const adminAccessToken = `shpat_sandbox_${randomBytes(12).toString("hex")}`;
  emulator.addShop({ ...shop, adminAccessToken });
  await db.shop.create({
    data: { domain: shop.domain, plan: shop.plan, ...(shop.installed ? {} : { uninstalledAt: new Date() }) },
  });
  if (shop.installed) {
    await db.session.create({
      data: {
        id: `offline_${shop.domain}`,
        shop: shop.domain,
        state: "",
        isOnline: false,
        accessToken: adminAccessToken,
        scope: "read_metaobjects,write_metaobjects",
      },
    });
  }
}
await db.$disconnect();

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
