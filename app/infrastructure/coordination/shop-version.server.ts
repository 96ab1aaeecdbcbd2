import { oncePerRequest } from "~/lib/request-context.server";
import { CoordinatorUnavailableError } from "./coordinator.server";
import { getCoordinator } from "./shared-coordinator.server";

const keyOf = (shop: string) => `shop:${shop}`;

let unknownVersions = 0;

/**
 * The version of everything cached about a shop (its offline session, install state and plan).
 * Read once per request: a change bumped by any instance (uninstall, plan change, token refresh)
 * is seen by every instance's next request. While the coordinator cannot tell the version (Redis
 * unreachable), it is a negative number never returned before, which no cache entry holds: every
 * cache keyed by it reloads from the database rather than serve what may have changed meanwhile.
 */
export function readShopVersion(shop: string): Promise<number> {
  return oncePerRequest(keyOf(shop), async () => {
    try {
      return (await getCoordinator().readVersions([keyOf(shop)]))[0]!;
    } catch (error) {
      if (error instanceof CoordinatorUnavailableError) return --unknownVersions;
      throw error;
    }
  });
}

/**
 * Throws CoordinatorUnavailableError when Redis is unreachable; the Redis coordinator then makes
 * the bump as soon as Redis is back, if this process still runs.
 */
export function bumpShopVersion(shop: string): Promise<void> {
  return getCoordinator().bumpVersion(keyOf(shop));
}
