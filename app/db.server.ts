import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";
import { databaseUrl } from "./config/database-url";

declare global {
  // eslint-disable-next-line no-var
  var prismaGlobal: PrismaClient | undefined;
}

function createPrismaClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaLibSQL({ url: databaseUrl() }) });
}

// Dev-server reloads re-evaluate modules; one client per process keeps SQLite connections bounded.
const prisma = globalThis.prismaGlobal ?? createPrismaClient();
if (process.env.NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;
