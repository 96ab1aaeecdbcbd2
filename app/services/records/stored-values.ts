/**
 * What the records' enum and json fields hold, with their readers: a value the field does not
 * hold in that shape (absent, written by an older app) reads as empty, never as a failure. The
 * services above build on this vocabulary (saved-items/schemas.ts makes the API's enums of it).
 */

export const ENTITY_TYPES = [
  "product",
  "variant",
  "collection",
  "metaobject",
  "article",
  "page",
  "configuration",
] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export const ITEM_STATES = ["active", "removed"] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** A removed item still stored: its metaobject's id (what retention deletes by) and when it was removed. */
export interface RemovedItem {
  id: string;
  at: string;
}

/** A list's removed-but-stored items by handle: its `removed_items` field, written with its index. */
export type RemovedItems = Readonly<Record<string, RemovedItem>>;

/** The stored `removed_items` value; anything that is not one (absent, a list written before it) is null. */
export function parseRemovedItems(value: unknown): RemovedItems | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, RemovedItem] =>
      typeof entry[1] === "object" &&
      entry[1] !== null &&
      typeof (entry[1] as RemovedItem).id === "string" &&
      typeof (entry[1] as RemovedItem).at === "string",
  );
  return Object.fromEntries(entries);
}

/** A json field's stored list of strings; anything else is an empty list. */
export function storedStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

/** A date_time field's value: the platform takes second precision. */
export const isoSeconds = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");
