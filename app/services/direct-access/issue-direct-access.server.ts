import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import type { DirectChannel } from "~/services/channels";
import { DIRECT_ACCESS_TOKEN_TTL_SECONDS, mintDirectAccessToken } from "~/services/direct-access/direct-token.server";
import { ServiceError, type ErrorCode } from "~/lib/errors";
import { assertChannelEntitled } from "~/services/plans";
import { logUnexpectedLookupFailure } from "~/platform/platform-json.server";
import { requireInstalledShopPlan } from "~/services/installs/shop-state.server";
import type { DirectAccessGrant } from "./schemas";

/**
 * The gates every exchange passes before it asks the platform about the customer (spec §4.2
 * rule 5, §8): an offline session and a Shop record not marked uninstalled, then a plan that
 * includes the channel. The session is checked first so a stranger's domain never gets a record.
 */
export async function requireEntitledShop(shop: string, channel: DirectChannel): Promise<void> {
  await requireOfflineAdmin(shop);
  const plan = await requireInstalledShopPlan(shop);
  assertChannelEntitled(plan, channel);
}

/** Mints the service token for a resolved customer and shapes the exchange's success data. */
export async function issueDirectAccess(subject: {
  shop: string;
  customerGid: string;
  channel: DirectChannel;
}): Promise<DirectAccessGrant> {
  const { token, expiresAt } = await mintDirectAccessToken(subject);
  return {
    authorization: `Bearer ${token}`,
    tokenType: "Bearer",
    expiresInSeconds: DIRECT_ACCESS_TOKEN_TTL_SECONDS,
    expiresAt: expiresAt.toISOString(),
    channel: subject.channel,
    shop: subject.shop,
  };
}

/**
 * The headless exchanges' shared story: gates first, then the platform lookup that proves the
 * customer; any lookup failure is the path's own 401 code, never a 5xx the caller could probe.
 */
export async function exchangeResolvedCustomer(
  shop: string,
  resolveCustomerGid: () => Promise<string>,
  failure: { code: ErrorCode; message: string },
): Promise<DirectAccessGrant> {
  await requireEntitledShop(shop, "headless");
  let customerGid: string;
  try {
    customerGid = await resolveCustomerGid();
  } catch (error) {
    logUnexpectedLookupFailure(shop, error);
    throw new ServiceError(failure.code, failure.message, { cause: error });
  }
  return issueDirectAccess({ shop, customerGid, channel: "headless" });
}
