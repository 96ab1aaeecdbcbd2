// Helpers shared by the emulator's own tests.

export const TEST_SHOP = "emulator-shop.myshopify.com";
export const adminUrl = (shop = TEST_SHOP) => `https://${shop}/admin/api/2026-10/graphql.json`;

export interface GraphqlBody {
  // Response data is checked field by field; typing every document's shape would add nothing.
  data?: any;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: {
    cost: {
      requestedQueryCost: number;
      actualQueryCost: number | null;
      throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
}

/** POSTs a GraphQL document to the Admin API at `url` with a raw access token. */
export async function postAdmin(
  url: string,
  token: string,
  query: string,
  variables?: Record<string, unknown>,
  init: RequestInit = {},
): Promise<{ status: number; body: GraphqlBody }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
    body: JSON.stringify({ query, variables }),
    ...init,
  });
  return { status: response.status, body: (await response.json()) as GraphqlBody };
}

/**
 * The emulator's waits (latency, delay faults) held until the test wakes them, so a test sees what
 * was waited for and that nothing was answered before, without spending the time.
 */
export function heldSleeps() {
  const held: { ms: number; wake: () => void }[] = [];
  return {
    sleep: (ms: number) => new Promise<void>((wake) => held.push({ ms, wake })),
    /** The waits begun and not yet woken, in milliseconds. */
    waiting: () => held.map((sleep) => sleep.ms),
    wakeAll: () => {
      for (const sleep of held.splice(0)) sleep.wake();
    },
  };
}
