import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { parseDatabaseUrl } from "../../../app/config/database-url";
import { startEmbeddedPostgres } from "../../../app/infrastructure/database/embedded.server";
import { applyMigrations } from "../../../app/infrastructure/database/migrations.server";
import { createPool } from "../../../app/infrastructure/database/pool.server";
import { usagePeriod } from "../../../app/services/usage/usage-period";
import type { RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { createTestDatabase, embeddedDumps } from "./test-databases";
import type { Seed } from "./seed";

/**
 * The sandbox's database as a postgres:// URL every app instance connects to: by default an
 * embedded PostgreSQL in memory, served from this process (a copy of the tests' cached migrated
 * dump, so no initdb on every start); `pglite:<dir>` keeps it in a directory; a postgres:// URL
 * is used as it is.
 */
export async function openSandboxDatabase(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === "postgres") return { url: target.url, stop: async () => {} };
  if (target.dataDir === "memory") {
    const database = await createTestDatabase({ kind: "embedded", ...(await embeddedDumps()) });
    return { url: database.url, stop: database.drop };
  }
  return startEmbeddedPostgres({ dataDir: target.dataDir });
}

/**
 * Migrates the database and writes the seed's install records: each installed shop gets the
 * offline session the emulated platform issued it (an expiring token with a refresh token, as at
 * a real install), and the month's usage and overage choice the seed gives. Upserts, so a kept
 * database starts from the seed too.
 */
export async function seedDatabase(url: string, seed: Seed, emulator: RemoteEmulator): Promise<void> {
  const pool = createPool(url, { max: 1 });
  try {
    await applyMigrations(pool);
    const db = new PrismaClient({ adapter: new PrismaPg(pool) });
    for (const shop of seed.shops) {
      const record = { plan: shop.plan, uninstalledAt: shop.installed ? null : new Date() };
      await db.shop.upsert({
        where: { domain: shop.domain },
        create: { domain: shop.domain, ...record },
        update: record,
      });
      if (shop.usedThisMonth !== undefined) {
        const key = { shopDomain: shop.domain, period: usagePeriod(new Date()) };
        const count = shop.usedThisMonth;
        await db.usageCounter.upsert({
          where: { shopDomain_period: key },
          create: { ...key, count },
          update: { count },
        });
      }
      if (shop.overageCapUsd !== undefined) {
        const overage = { enabled: true, capCents: Math.round(shop.overageCapUsd * 100) };
        await db.overageSetting.upsert({
          where: { shopDomain: shop.domain },
          create: { shopDomain: shop.domain, ...overage },
          update: overage,
        });
      }
      const credentials = shop.installed ? await emulator.adminCredentials(shop.domain) : undefined;
      if (!credentials) continue;
      const session = {
        shop: shop.domain,
        state: "",
        isOnline: false,
        accessToken: credentials.accessToken,
        scope: credentials.scope,
        expires: credentials.expiresAt ? new Date(credentials.expiresAt) : null,
        refreshToken: credentials.refreshToken,
        refreshTokenExpires: credentials.refreshTokenExpiresAt ? new Date(credentials.refreshTokenExpiresAt) : null,
      };
      const id = `offline_${shop.domain}`;
      await db.session.upsert({ where: { id }, create: { id, ...session }, update: session });
    }
    await db.$disconnect();
  } finally {
    await pool.end().catch(() => {});
  }
}
