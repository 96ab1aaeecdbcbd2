import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";
import { databaseUrl } from "./app/config/database-url";

// The JS schema engine and a driver adapter let migrations run with no downloaded engine binary.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    return new PrismaLibSQL({ url: databaseUrl() });
  },
});
