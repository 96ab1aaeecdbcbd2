/** The embedded default is a SQLite file next to the schema, so a fresh clone needs no database server. */
export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}
