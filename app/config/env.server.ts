import { z } from "zod";
import { MAX_WEBHOOK_BODY_BYTES } from "./body-bounds";
import { DEFAULT_DATABASE_URL, DatabaseUrlSchema, parseDatabaseUrl, type DatabaseTarget } from "./database-url";

/**
 * Every environment variable the app and its server read, in one schema read once at start
 * (docs/deploy.md's table lists the same; tests/deploy/deploy-guide.test.ts keeps them equal). A
 * value is parsed in the unit its name says; an empty value (`NAME=` in a .env file) is unset.
 */

const unsetIfEmpty = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** An optional whole number in [min, max]; unset or empty is `fallback`. */
const wholeNumber = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (unsetIfEmpty(value) === undefined) return fallback;
      const number = Number(value);
      if (!/^\s*\d+\s*$/.test(value!) || number < min || number > max) {
        context.addIssue({
          code: "custom",
          message: `set ${name} to a whole number from ${min} to ${max} (default ${fallback})`,
        });
        return z.NEVER;
      }
      return number;
    });

/** An optional number of seconds, fractions allowed, above 0 (or from `min`) and at most `max`. */
const seconds = (name: string, fallback: number, max: number, min?: number) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (unsetIfEmpty(value) === undefined) return fallback;
      const number = Number(value);
      if (!Number.isFinite(number) || (min === undefined ? number <= 0 : number < min) || number > max) {
        const range = min === undefined ? `above 0 and at most ${max}` : `from ${min} to ${max}`;
        context.addIssue({
          code: "custom",
          message: `set ${name} to a number of seconds ${range} (default ${fallback})`,
        });
        return z.NEVER;
      }
      return number;
    });

/** A string that must be set, at least `minLength` long; `message` says what to set. */
const required = (message: string, minLength = 1) => z.string(message).min(minLength, message);

/** An optional string; unset or empty is undefined. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfEmpty, schema.optional());

export const EnvShape = z.object({
  // The platform app's credentials and where it is served.
  SHOPIFY_API_KEY: required("set SHOPIFY_API_KEY to the app's client ID"),
  SHOPIFY_API_SECRET: required("set SHOPIFY_API_SECRET to the app's client secret"),
  SHOPIFY_APP_URL: z.url("set SHOPIFY_APP_URL to the public https URL the app is served from"),
  DIRECT_API_JWT_SECRET: required("set DIRECT_API_JWT_SECRET to a random string of at least 32 characters", 32),
  // One more shop domain the platform library accepts (the platform's own test environments).
  SHOP_CUSTOM_DOMAIN: optional(z.string()),
  // Unset: the embedded database (PGlite) in .data/pglite.
  DATABASE_URL: z.preprocess(unsetIfEmpty, DatabaseUrlSchema.optional().default(DEFAULT_DATABASE_URL)),
  // A deployment that migrates as a release step (npm run db:migrate) says so; the server then does not.
  SKIP_MIGRATIONS: z
    .preprocess(unsetIfEmpty, z.enum(["0", "1"], "set SKIP_MIGRATIONS to 1, or leave it unset").optional())
    .transform((value) => value === "1"),
  // Unset or empty (as .env.example leaves it): one instance on its own, coordinating in process.
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, error: "set REDIS_URL to a redis:// or rediss:// URL" })),
  // Several apps or sandboxes can share one Redis as long as each has its own prefix.
  REDIS_KEY_PREFIX: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[\w.:-]+$/, "set REDIS_KEY_PREFIX to letters, digits and . _ : - only (default saved-items)")
      .optional()
      .default("saved-items"),
  ),
  // A command not answered in this time counts Redis as down (writes refused, reads bypass it).
  REDIS_COMMAND_TIMEOUT_MS: wholeNumber("REDIS_COMMAND_TIMEOUT_MS", 1_000, 100, 30_000),
  // Flow triggers (docs/reach.md): "off" stops the app firing any, e.g. while Flow has an incident.
  // The test suite runs with them off, so their after-answer requests stay out of other tests.
  FLOW_TRIGGERS: z.preprocess(
    unsetIfEmpty,
    z.enum(["on", "off"], "set FLOW_TRIGGERS to on or off (default on)").optional().default("on"),
  ),
  // How far behind writes the platform's metaobject search may be: a customers/redact is complete
  // only when a pass that starts this long after the customer's last possible write finds nothing
  // (docs/decisions/0006-redaction-that-cannot-miss.md).
  SEARCH_LAG_SECONDS: seconds("SEARCH_LAG_SECONDS", 60, 86_400, 0),
  // How long removed items, and lists deleted or left empty, stay stored before retention deletes
  // them from the platform; they count against the customer's bounds until then
  // (docs/decisions/0017-bounded-storage.md). The sandbox shortens it to watch retention work.
  RETENTION_SECONDS: seconds("RETENTION_SECONDS", 2_592_000, 31_536_000, 60),
  // How many entries each metaobject definition may hold per shop: the platform's limit
  // (shopify.dev, "Metaobject limits": 1,000,000, raised before, changelog 2025-10-24), which the
  // setup page measures the app's records against. Set only if the platform changes it, or lower
  // in a sandbox whose emulated platform caps lower.
  METAOBJECT_ENTRY_CAP: wholeNumber("METAOBJECT_ENTRY_CAP", 1_000_000, 1, 1_000_000_000),
  // The sandbox's emulated platform. Only a loopback address is accepted, so a stray setting can
  // never send a shop's tokens to another host; a production deployment leaves it unset.
  SANDBOX_PLATFORM_URL: optional(
    z.url({
      protocol: /^http$/,
      hostname: /^(127\.0\.0\.1|localhost|\[::1\])$/,
      error: "unset SANDBOX_PLATFORM_URL: only the sandbox sets it, to its emulator on http://127.0.0.1:<port>",
    }),
  ),

  // The HTTP server (server/config.ts says what each governs).
  PORT: wholeNumber("PORT", 3000, 0, 65535),
  // Unset: every interface (what a container needs).
  HOST: optional(z.string().trim()),
  MAX_CONNECTIONS: wholeNumber("MAX_CONNECTIONS", 1024, 1, 1_000_000),
  MAX_PENDING_PER_CLIENT: wholeNumber("MAX_PENDING_PER_CLIENT", 64, 1, 1_000_000),
  MAX_CONNECTIONS_PER_CLIENT: wholeNumber("MAX_CONNECTIONS_PER_CLIENT", 128, 1, 1_000_000),
  MIN_BODY_BYTES_PER_SECOND: wholeNumber("MIN_BODY_BYTES_PER_SECOND", 16_384, 1, 1_000_000_000),
  UNAUTHENTICATED_BODY_BUDGET_MIB: wholeNumber(
    "UNAUTHENTICATED_BODY_BUDGET_MIB",
    32,
    MAX_WEBHOOK_BODY_BYTES / (1024 * 1024),
    1_000_000,
  ),
  HEADERS_TIMEOUT_SECONDS: seconds("HEADERS_TIMEOUT_SECONDS", 5, 300),
  REQUEST_TIMEOUT_SECONDS: seconds("REQUEST_TIMEOUT_SECONDS", 30, 3600),
  BODY_TIMEOUT_SECONDS: seconds("BODY_TIMEOUT_SECONDS", 10, 3600),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds("KEEP_ALIVE_TIMEOUT_SECONDS", 5, 3600),
  LINGER_SECONDS: seconds("LINGER_SECONDS", 2, 60),
  SHUTDOWN_TIMEOUT_SECONDS: seconds("SHUTDOWN_TIMEOUT_SECONDS", 10, 3600),
  // Unset: no /metrics at all (404).
  METRICS_TOKEN: optional(
    z
      .string()
      .regex(
        /^[\x21-\x7e]{16,}$/,
        "set METRICS_TOKEN to at least 16 printable characters without spaces (e.g. openssl rand -hex 32), or leave it unset",
      ),
  ),
  TRUST_PROXY: wholeNumber("TRUST_PROXY", 0, 0, 10),
});

/** Every variable's name (docs/deploy.md has a row for each). */
export const ENV_VARIABLES = Object.keys(EnvShape.shape) as (keyof typeof EnvShape.shape)[];

const EnvSchema = EnvShape.superRefine((env, context) => {
  // Node refuses a server whose headers or body may take longer than the whole request.
  for (const name of ["HEADERS_TIMEOUT_SECONDS", "BODY_TIMEOUT_SECONDS"] as const) {
    if (env[name] > env.REQUEST_TIMEOUT_SECONDS) {
      context.addIssue({ code: "custom", path: [name], message: "must not be longer than REQUEST_TIMEOUT_SECONDS" });
    }
  }
});

export type Env = z.infer<typeof EnvSchema>;

/** A configuration the process cannot start with; `issues` name each variable to fix. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(
      `Invalid configuration; set these environment variables:\n${issues.map((issue) => `  - ${issue}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

function parseWith<T>(schema: z.ZodType<T>, source: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return parsed.data;
}

/** Parses an environment; throws ConfigError naming every variable to fix at once. */
export const parseEnv = (source: Record<string, string | undefined>): Env => parseWith(EnvSchema, source);

let cached: Env | undefined;

/**
 * The process's environment, parsed once: a misconfigured deployment stops at boot (server/main.ts
 * reads it before anything else) instead of at the first request.
 */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Where DATABASE_URL points, from that variable alone: for the scripts and Prisma's CLI, which run
 * without the app's other variables. The app itself reads it through getEnv().
 */
export function databaseTargetOf(source: Record<string, string | undefined>): DatabaseTarget {
  return parseDatabaseUrl(parseWith(EnvShape.pick({ DATABASE_URL: true }), source).DATABASE_URL);
}

/** The app's database, as configured. */
export const databaseTarget = (): DatabaseTarget => parseDatabaseUrl(getEnv().DATABASE_URL);

/** SEARCH_LAG_SECONDS in milliseconds: how long the passes that wait for the platform's search wait. */
export const searchLagMs = (): number => getEnv().SEARCH_LAG_SECONDS * 1000;

/** RETENTION_SECONDS in milliseconds: how long removed items and emptied lists stay stored. */
export const retentionWindowMs = (): number => getEnv().RETENTION_SECONDS * 1000;
