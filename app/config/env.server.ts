import { z } from "zod";
import { DatabaseUrlSchema, databaseUrl } from "./database-url";

/** What the app asks of a shop; shopify.app.toml requests exactly these (tests/deploy checks). */
export const DEFAULT_SCOPES =
  "read_customers,read_inventory,read_metaobjects,read_products,write_app_proxy,write_metaobjects";

const EnvSchema = z.object({
  SHOPIFY_API_KEY: z.string().min(1, "set SHOPIFY_API_KEY to the app's client ID"),
  SHOPIFY_API_SECRET: z.string().min(1, "set SHOPIFY_API_SECRET to the app's client secret"),
  SHOPIFY_APP_URL: z.url("set SHOPIFY_APP_URL to the public https URL the app is served from"),
  SCOPES: z.string().default(DEFAULT_SCOPES),
  DATABASE_URL: DatabaseUrlSchema,
  DIRECT_API_JWT_SECRET: z
    .string("set DIRECT_API_JWT_SECRET to a random string of at least 32 characters")
    .min(32, "DIRECT_API_JWT_SECRET must be at least 32 characters long"),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  // Unset or empty (as .env.example leaves it): one instance on its own, coordinating in process.
  REDIS_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.url({ protocol: /^rediss?$/, error: "set REDIS_URL to a redis:// or rediss:// URL" }).optional(),
  ),
  // Several apps or sandboxes can share one Redis as long as each has its own prefix.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w.:-]+$/, "REDIS_KEY_PREFIX: letters, digits and . _ : - only")
    .default("saved-items"),
  // A command not answered in this time counts Redis as down (writes refused, reads bypass it).
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number("REDIS_COMMAND_TIMEOUT_MS: a number of milliseconds")
    .int()
    .min(100, "REDIS_COMMAND_TIMEOUT_MS: at least 100")
    .max(30_000, "REDIS_COMMAND_TIMEOUT_MS: at most 30000")
    .default(1_000),
  // Flow triggers (docs/reach.md): "off" stops the app firing any, e.g. while Flow has an incident.
  // The test suite runs with them off, so their after-answer requests stay out of other tests.
  FLOW_TRIGGERS: z.enum(["on", "off"]).default("on"),
  // How far behind writes the platform's metaobject search may be: a customers/redact is complete
  // only when a pass that starts this long after the customer's last possible write finds nothing
  // (docs/decisions/0006-redaction-that-cannot-miss.md).
  SEARCH_LAG_SECONDS: z.coerce
    .number("SEARCH_LAG_SECONDS: a number of seconds")
    .int()
    .min(0, "SEARCH_LAG_SECONDS: at least 0")
    .max(86_400, "SEARCH_LAG_SECONDS: at most 86400")
    .default(60),
  // How long removed items, and lists deleted or left empty, stay stored before retention deletes
  // them from the platform; they count against the customer's bounds until then
  // (docs/decisions/0017-bounded-storage.md). The sandbox shortens it to watch retention work.
  RETENTION_SECONDS: z.coerce
    .number("RETENTION_SECONDS: a number of seconds")
    .int()
    .min(60, "RETENTION_SECONDS: at least 60")
    .max(31_536_000, "RETENTION_SECONDS: at most 31536000 (a year)")
    .default(2_592_000),
  // How many entries each metaobject definition may hold per shop: the platform's limit
  // (shopify.dev, "Metaobject limits": 1,000,000, raised before, changelog 2025-10-24), which the
  // setup page measures the app's records against. Set only if the platform changes it, or lower
  // in a sandbox whose emulated platform caps lower.
  METAOBJECT_ENTRY_CAP: z.coerce
    .number("METAOBJECT_ENTRY_CAP: a number of entries")
    .int()
    .positive("METAOBJECT_ENTRY_CAP: at least 1")
    .default(1_000_000),
  // The sandbox's emulated platform. Only a loopback address is accepted, so a stray setting can
  // never send a shop's tokens to another host; a production deployment leaves it unset.
  SANDBOX_PLATFORM_URL: z
    .url({
      protocol: /^http$/,
      hostname: /^(127\.0\.0\.1|localhost|\[::1\])$/,
      error: "unset SANDBOX_PLATFORM_URL: only the sandbox sets it, to its emulator on http://127.0.0.1:<port>",
    })
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/**
 * Parses the environment once and fails fast: the message lists every variable to set,
 * so a misconfigured deployment stops at boot instead of at the first request.
 */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse({ ...process.env, DATABASE_URL: databaseUrl() });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration; set these environment variables:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/** SEARCH_LAG_SECONDS in milliseconds: how long the passes that wait for the platform's search wait. */
export const searchLagMs = (): number => getEnv().SEARCH_LAG_SECONDS * 1000;

/** RETENTION_SECONDS in milliseconds: how long removed items and emptied lists stay stored. */
export const retentionWindowMs = (): number => getEnv().RETENTION_SECONDS * 1000;
