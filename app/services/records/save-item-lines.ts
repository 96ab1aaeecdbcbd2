import { fieldValue, SAVE_ITEM_FIELDS, SAVE_ITEM_TYPE } from "./fields";

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
  const value = (key: string) => fieldValue(fields, key) ?? "";
  const line = {
    customerGid: value(SAVE_ITEM_FIELDS.customerId),
    context: value(SAVE_ITEM_FIELDS.context),
    entityType: value(SAVE_ITEM_FIELDS.entityType),
    entityGid: value(SAVE_ITEM_FIELDS.entityGid),
    active: value(SAVE_ITEM_FIELDS.status) === "active",
    savedAt: value(SAVE_ITEM_FIELDS.savedAt),
  };
  // A line without identity or date is not one the app wrote; counting it would skew the figures.
  return line.customerGid && line.entityGid && line.savedAt ? line : undefined;
}
