import type { KnownItem } from "./list-state";
import type { SaveItemRecord } from "~/services/records/metaobject-store.server";
import type { ItemIdentity } from "./schemas";

/** A save_item read from the platform, as the list state knows it. */
export function observedItem(record: SaveItemRecord): KnownItem {
  return {
    id: record.id,
    status: record.status,
    entityType: record.entityType,
    entityGid: record.entityGid,
    savedAt: record.savedAt,
    snapshot: record.snapshot,
    stampMs: record.updatedAtMs,
  };
}

/** An item the platform said does not exist. */
export function absentItem(identity: ItemIdentity): KnownItem {
  return {
    id: null,
    status: "removed",
    entityType: identity.entityType,
    entityGid: identity.entityGid,
    savedAt: null,
    snapshot: null,
    stampMs: 0,
  };
}
