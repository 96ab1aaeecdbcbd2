import { z } from "zod";
import { clock } from "~/lib/clock";
import { registerProcessCache } from "~/lib/process-caches.server";
import { fetchPlatformJson, IdentityLookupError } from "./platform-json.server";

/**
 * How long a shop's discovery document is reused. It names the shop's Customer Account API
 * endpoint, which rarely changes (Hydrogen, the platform's own client, caches it for an hour).
 * Its Cache-Control max-age is honoured between a floor, so a document marked no-cache cannot make
 * every exchange fetch it again, and a ceiling, so a moved endpoint is picked up within the hour.
 */
export const DISCOVERY_FRESHNESS_MS = { min: 60_000, max: 3_600_000, absent: 3_600_000 } as const;

/**
 * A failed lookup is remembered briefly: during an outage (or for a shop without customer
 * accounts) each shop's document is asked for at most twice a minute, and a recovery is seen
 * within 30 s.
 */
export const DISCOVERY_FAILURE_MS = 30_000;

/** Shops beyond this many are dropped least recently used first; one costs a few hundred bytes. */
const MAX_SHOPS = 10_000;

const DiscoverySchema = z.object({
  graphql_api: z.url({ protocol: /^https$/ }),
});

interface Entry {
  graphqlEndpoint: Promise<string>;
  /** Infinity while the lookup is in flight, so every concurrent caller shares it. */
  expiresAtMs: number;
}

const entries = new Map<string, Entry>();
registerProcessCache(() => entries.clear());

/**
 * The shop's Customer Account GraphQL endpoint from https://{shop}/.well-known/customer-account-api,
 * fetched once per shop and freshness period, with one request in flight per shop however many
 * exchanges wait for it. Rejects with IdentityLookupError (remembered for DISCOVERY_FAILURE_MS).
 */
export function customerAccountGraphqlEndpoint(shop: string): Promise<string> {
  const cached = entries.get(shop);
  entries.delete(shop);
  if (cached && cached.expiresAtMs > clock.now().getTime()) {
    // Re-inserting keeps the Map in least-recently-used order, so the first key is the idlest.
    entries.set(shop, cached);
    return cached.graphqlEndpoint;
  }
  const lookup = discover(shop);
  const entry: Entry = {
    graphqlEndpoint: lookup.then(({ graphqlEndpoint }) => graphqlEndpoint),
    expiresAtMs: Infinity,
  };
  lookup.then(
    ({ freshForMs }) => {
      entry.expiresAtMs = clock.now().getTime() + freshForMs;
    },
    () => {
      entry.expiresAtMs = clock.now().getTime() + DISCOVERY_FAILURE_MS;
    },
  );
  if (entries.size >= MAX_SHOPS) entries.delete(entries.keys().next().value!);
  entries.set(shop, entry);
  return entry.graphqlEndpoint;
}

async function discover(shop: string): Promise<{ graphqlEndpoint: string; freshForMs: number }> {
  const { body, headers } = await fetchPlatformJson(`https://${shop}/.well-known/customer-account-api`);
  const document = DiscoverySchema.safeParse(body);
  if (!document.success) throw new IdentityLookupError(`the discovery document of ${shop} has no https graphql_api`);
  return { graphqlEndpoint: document.data.graphql_api, freshForMs: freshnessOf(headers.get("Cache-Control")) };
}

/** max-age within the bounds; no-store and no-cache count as 0, so they get the floor. */
export function freshnessOf(cacheControl: string | null): number {
  const { min, max, absent } = DISCOVERY_FRESHNESS_MS;
  const directives = (cacheControl ?? "")
    .toLowerCase()
    .split(",")
    .map((directive) => directive.trim());
  if (directives.includes("no-store") || directives.includes("no-cache")) return min;
  const maxAge = directives.map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)?.[1]).find(Boolean);
  if (maxAge === undefined) return absent;
  return Math.min(max, Math.max(min, Number(maxAge) * 1000));
}
