// The platform's limits on stored data, each beside the shopify.dev page it comes from. The
// metaobject store (metaobject-store.ts, field-types.ts) and metafieldsSet (metafields.ts) both
// check values here, so the two cannot drift.

/** "Metaobject limits": "Each metaobject definition can have up to 1,000,000 entries." Per shop. */
export const DEFAULT_METAOBJECT_ENTRY_CAP = 1_000_000;

/**
 * The message of a create past the cap. The code is MetaobjectUserErrorCode MAX_OBJECTS_EXCEEDED,
 * whose reference text this is ("The maximum number of metaobjects per shop has been exceeded");
 * the platform's exact userError message is not documented.
 */
export const ENTRY_CAP_MESSAGE = "The maximum number of metaobjects per shop has been exceeded";

/** "Metafield limits": "Most metafield types have a 64KB (65,536 bytes) size limit". */
const DEFAULT_MAX_BYTES = 65_536;

const MAX_BYTES: Record<string, number> = {
  // Changelog "JSON metafield values limited to 128KB" (API 2026-04): apps that used no JSON field
  // before 2026-04-01, as this one, get 128 KB; older apps keep 2 MB.
  json: 128 * 1024,
  // "Metafield limits": `id` and `url` 2KB.
  id: 2 * 1024,
  url: 2 * 1024,
};

/**
 * "Metafield limits", lists: "All list types ... have a maximum of 128 items. The only exception
 * is metaobject references, which support up to 256 items"; each item has its single type's limit.
 */
const LIST_MAX_ITEMS = 128;
const LIST_MAX_ITEMS_BY_TYPE: Record<string, number> = { "list.metaobject_reference": 256 };

function bytesProblem(type: string, text: string): string | undefined {
  const max = MAX_BYTES[type] ?? DEFAULT_MAX_BYTES;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > max ? `Value is too long: ${bytes} bytes, and a ${type} value holds at most ${max}.` : undefined;
}

/**
 * Why a value of `type` is too big for the platform, or undefined when it fits. A list's value
 * must already be a JSON array (the type rules check that first).
 */
export function sizeProblem(type: string, value: string): string | undefined {
  if (!type.startsWith("list.")) return bytesProblem(type, value);
  const items = JSON.parse(value) as unknown[];
  const maxItems = LIST_MAX_ITEMS_BY_TYPE[type] ?? LIST_MAX_ITEMS;
  if (items.length > maxItems) return `Value has ${items.length} items, and a ${type} holds at most ${maxItems}.`;
  const itemType = type.slice("list.".length);
  for (const item of items) {
    const problem = bytesProblem(itemType, typeof item === "string" ? item : JSON.stringify(item));
    if (problem) return problem;
  }
  return undefined;
}
