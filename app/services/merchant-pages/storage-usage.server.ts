import { errorFields, writeLog } from "~/lib/json-log";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { metaobjectEntryCap } from "~/platform/metaobject-cap.server";
import { countRecordEntries } from "~/services/records/entry-counts.server";
import { INSIGHTS_TYPE, SAVE_ITEM_TYPE, SAVE_LIST_DIRECTORY_TYPE, SAVE_LIST_TYPE } from "~/services/records/fields";

/** From this share of the cap the setup page warns: time to act before saves are refused. */
export const STORAGE_WARNING_SHARE = 0.8;

/** The app's metaobject definitions (shopify.app.toml), as the merchant reads them. */
export const STORED_RECORDS = [
  { type: SAVE_ITEM_TYPE, name: "Saved items" },
  { type: SAVE_LIST_TYPE, name: "Lists" },
  { type: SAVE_LIST_DIRECTORY_TYPE, name: "List directories" },
  { type: INSIGHTS_TYPE, name: "Insights records" },
] as const;

export type StorageLevel = "ok" | "warning" | "full";

export interface RecordUsage {
  name: string;
  used: number;
  cap: number;
  /** Rounded down, so 100 means full. */
  percentUsed: number;
  level: StorageLevel;
}

/** How close a definition is to the cap: full at it, a warning from STORAGE_WARNING_SHARE. */
export function storageLevel(used: number, cap: number): StorageLevel {
  if (used >= cap) return "full";
  return used >= cap * STORAGE_WARNING_SHARE ? "warning" : "ok";
}

/**
 * Each of the app's definitions with its entries against the platform's cap, in one request; null
 * when the platform cannot say (logged: the rest of the page still serves). A Response (the
 * admin's re-authentication) goes through.
 */
export async function readStorageUsage(shop: string, admin: AdminGraphqlClient): Promise<RecordUsage[] | null> {
  try {
    return await countEntries(admin);
  } catch (error) {
    if (error instanceof Response) throw error;
    writeLog("error", "could not read the app's metaobject counts for the setup page", {
      shop,
      error: errorFields(error),
    });
    return null;
  }
}

async function countEntries(admin: AdminGraphqlClient): Promise<RecordUsage[]> {
  const entries = await countRecordEntries(admin);
  const cap = metaobjectEntryCap();
  return STORED_RECORDS.map(({ type, name }) => {
    const used = entries[type];
    return { name, used, cap, percentUsed: Math.floor((used / cap) * 100), level: storageLevel(used, cap) };
  });
}
