import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { databaseTargetOf } from "./app/config/env.server";

// The JS schema engine and a driver adapter let the CLI run with no downloaded engine binary. Of the
// CLI, `migrate diff` is what we rely on; migrations are applied by our own runner
// (app/infrastructure/database/migrations.server.ts, `npm run db:migrate`).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    const target = databaseTargetOf(process.env);
    if (target.kind === "postgres") return new PrismaPg({ connectionString: target.url });
    // The CLI builds the adapter before every command but opens it only for the ones that need a
    // database (`migrate diff` too): those need a server to connect to.
    const refuse = async (): Promise<never> => {
      throw new Error(
        "This Prisma command needs DATABASE_URL=postgres://…: the embedded database has no server of its own",
      );
    };
    return { provider: "postgres", adapterName: "@prisma/adapter-pg", connect: refuse, connectToShadowDb: refuse };
  },
});
