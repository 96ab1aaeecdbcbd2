/**
 * The app's platform records: each metaobject type and field key once, as shopify.app.toml
 * defines them, and the one reader of a node's `fields { key value }`. The `#graphql` documents
 * of this folder spell the same keys in their `field(key:)` selections, which must be literals.
 */

export const SAVE_ITEM_TYPE = "$app:save_item";
export const SAVE_LIST_TYPE = "$app:save_list";
export const SAVE_LIST_DIRECTORY_TYPE = "$app:save_list_directory";
export const INSIGHTS_TYPE = "$app:save_insights";

export const SAVE_ITEM_FIELDS = {
  listKey: "list_key",
  customerId: "customer_id",
  context: "context",
  entityType: "entity_type",
  entityGid: "entity_gid",
  status: "status",
  source: "source",
  savedAt: "saved_at",
  snapshot: "snapshot",
} as const;

export const SAVE_LIST_FIELDS = {
  customerId: "customer_id",
  context: "context",
  /** The list's index: the handles of its active items, newest save first. */
  activeItems: "active_items",
  /** Its removed items still stored, counted by the bound until retention deletes them. */
  removedItems: "removed_items",
  shareTokenHash: "share_token_hash",
  shareName: "share_name",
  name: "name",
  deletedAt: "deleted_at",
} as const;

export const DIRECTORY_FIELDS = {
  customerId: "customer_id",
  namedLists: "named_lists",
  /** Every list of the customer stored on the platform: the bound on lists counts it. */
  lists: "lists",
} as const;

export const INSIGHTS_FIELDS = {
  summary: "summary",
  refreshOperation: "refresh_operation",
  refreshStartedAt: "refresh_started_at",
} as const;

/**
 * A field's value from a node's `fields { key value }`, null when it is missing. The platform
 * stores no empty value (writing "" clears the field), so an absent key, a null and an empty
 * string all read as missing, the one way every reader handles it.
 */
export function fieldValue(fields: readonly { key: string; value?: string | null }[], key: string): string | null {
  return fields.find((field) => field.key === key)?.value || null;
}

/** A json field's stored text, parsed; undefined when it is absent or not valid JSON. */
export function parseStoredJson(value: string | null): unknown {
  if (value === null) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** A json field's text, as stored. */
export const storedJson = (value: unknown): string => JSON.stringify(value);

/** The fields that tie a save_item to its list and customer, written with every activation. */
export function itemOwnerFields(listHandle: string, customerGid: string): Record<string, string> {
  return { [SAVE_ITEM_FIELDS.listKey]: listHandle, [SAVE_ITEM_FIELDS.customerId]: customerGid };
}

/** Field values as a write's `fields` input. */
export const toFields = (fields: Record<string, string>) =>
  Object.entries(fields).map(([key, value]) => ({ key, value }));

/** The fields of an active save_item as an activation writes them (`snapshot`: its stored JSON text). */
export function itemActivationFields(item: {
  context: string;
  entityType: string;
  entityGid: string;
  savedAt: string;
  source?: string;
  snapshot?: string;
}): Record<string, string> {
  return {
    [SAVE_ITEM_FIELDS.context]: item.context,
    [SAVE_ITEM_FIELDS.entityType]: item.entityType,
    [SAVE_ITEM_FIELDS.entityGid]: item.entityGid,
    [SAVE_ITEM_FIELDS.status]: "active",
    [SAVE_ITEM_FIELDS.savedAt]: item.savedAt,
    ...(item.source ? { [SAVE_ITEM_FIELDS.source]: item.source } : {}),
    ...(item.snapshot ? { [SAVE_ITEM_FIELDS.snapshot]: item.snapshot } : {}),
  };
}
