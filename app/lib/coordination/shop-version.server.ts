import { oncePerRequest } from "~/lib/request-context.server";
import { getCoordinator } from "./shared-coordinator.server";

const keyOf = (shop: string) => `shop:${shop}`;

/**
 * The version of everything cached about a shop (its offline session, install state and plan).
 * Read once per request: a change bumped by any instance (uninstall, plan change, token refresh)
 * is seen by every instance's next request.
 */
export function readShopVersion(shop: string): Promise<number> {
  return oncePerRequest(keyOf(shop), async () => (await getCoordinator().readVersions([keyOf(shop)]))[0]!);
}

export function bumpShopVersion(shop: string): Promise<void> {
  return getCoordinator().bumpVersion(keyOf(shop));
}
