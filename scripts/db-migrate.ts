// `npm run db:migrate`: brings the database DATABASE_URL names (the embedded one by default) up to
// the code's migrations. The app migrates an embedded database itself whenever it opens one; a
// PostgreSQL server is migrated by this command, before the release that needs it starts.
import { databaseTargetOf } from "../app/config/env.server";
import { startEmbeddedPostgres } from "../app/infrastructure/database/embedded.server";
import { applyMigrations } from "../app/infrastructure/database/migrations.server";
import { createPool } from "../app/infrastructure/database/pool.server";

const target = databaseTargetOf(process.env);
if (target.kind === "embedded") {
  if (target.dataDir === "memory") {
    console.log("DATABASE_URL is pglite:memory: nothing to migrate ahead, the app migrates it at start.");
  } else {
    // startEmbeddedPostgres migrates before it serves.
    const embedded = await startEmbeddedPostgres({ dataDir: target.dataDir });
    await embedded.stop();
    console.log(`The embedded database in ${target.dataDir} is migrated.`);
  }
} else {
  const pool = createPool(target.url, { max: 1 });
  try {
    const applied = await applyMigrations(pool);
    console.log(applied.length > 0 ? `Applied ${applied.join(", ")}.` : "No pending migrations.");
  } finally {
    await pool.end();
  }
}
