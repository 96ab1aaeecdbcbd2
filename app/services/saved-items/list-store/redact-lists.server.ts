import { getListStateStore } from "../list-state-store.server";
import { sharedLinksChanged } from "../shared-page-cache.server";

/**
 * customers/redact's writes of a customer's lists: `deleteRecords` deletes them on the platform
 * (it takes no list lock: while a redaction is pending the customer's writes are refused). The
 * customer's cached list states go before (nothing is served from them meanwhile) and again after
 * (a read during the deletion may have cached what was about to go); then the shop's cached shared
 * pages, so the customer's links stop opening now. Every pass bumps them, so a pass whose bump
 * failed is retried with it even if it has nothing left to delete.
 */
export async function redactCustomerLists<T>(
  shop: string,
  customerGid: string,
  deleteRecords: () => Promise<T>,
): Promise<T> {
  await forgetCustomerLists(shop, customerGid);
  const deleted = await deleteRecords();
  await forgetCustomerLists(shop, customerGid);
  await sharedLinksChanged(shop);
  return deleted;
}

/** Drops the customer's cached list states (a redaction completed: reads found before it go too). */
export function forgetCustomerLists(shop: string, customerGid: string): Promise<void> {
  return getListStateStore().forgetCustomer(shop, customerGid);
}
