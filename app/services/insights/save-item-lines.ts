import { SAVE_ITEM_TYPE } from "~/services/saved-items/metaobject-store.server";

/**
 * The bulk query both the insights and the export read: every save_item of the shop with its
 * fields. Active and removed alike, because a save still happened on its day after its removal;
 * readers filter on status. `fields { key value }` is the same selection the service reads with.
 */
export function saveItemsBulkQuery(filter?: "active"): string {
  const query = filter === "active" ? `, query: "fields.status:active"` : "";
  return `{ metaobjects(type: "${SAVE_ITEM_TYPE}"${query}) { edges { node { id fields { key value } } } } }`;
}

/** One save_item from a result line, with the fields the readers use. */
export interface SaveItemLine {
  customerGid: string;
  context: string;
  entityType: string;
  entityGid: string;
  active: boolean;
  savedAt: string;
}

export function toSaveItemLine(node: unknown): SaveItemLine | undefined {
  const fields = (node as { fields?: { key: string; value: string | null }[] } | null)?.fields;
  if (!Array.isArray(fields)) return undefined;
  const value = (key: string) => fields.find((field) => field.key === key)?.value ?? "";
  const line = {
    customerGid: value("customer_id"),
    context: value("context"),
    entityType: value("entity_type"),
    entityGid: value("entity_gid"),
    active: value("status") === "active",
    savedAt: value("saved_at"),
  };
  // A line without identity or date is not one the app wrote; counting it would skew the figures.
  return line.customerGid && line.entityGid && line.savedAt ? line : undefined;
}
