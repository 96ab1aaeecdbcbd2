import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { ENTITY_TYPES, type EntityType, type ItemState } from "./schemas";

export const SAVE_LIST_TYPE = "$app:save_list";
export const SAVE_ITEM_TYPE = "$app:save_item";

/** A save_item as stored on the platform (its fields are the keys of shopify.app.toml). */
export interface SaveItemRecord {
  id: string;
  /** When the platform last wrote it; only activation and removal write an item. */
  updatedAtMs: number;
  context: string;
  entityType: EntityType;
  entityGid: string;
  status: ItemState;
  source: string | null;
  savedAt: string | null;
  /** The stored JSON text; parse with parseStoredJson. */
  snapshot: string | null;
}

/** Everything a write needs; fields are the save_item metaobject's keys. */
export type ItemWrite =
  | { kind: "create"; handle: string; fields: Record<string, string> }
  | { kind: "update"; id: string; fields: Record<string, string> };

export interface ListWrite {
  handle: string;
  customerGid: string;
  context: string;
}

export type WriteOutcome =
  | { ok: true; id: string }
  | { ok: false; code: "TAKEN" | "OTHER"; message: string }
  /** The request carrying this write failed as a whole; whether the platform applied it is unknown. */
  | { ok: false; code: "UNSENT_OR_UNKNOWN"; error: unknown };

interface MetaobjectNode {
  id: string;
  updatedAt: string;
  fields: { key: string; value: string | null }[];
}
interface MutationPayload {
  metaobject: { id: string } | null;
  userErrors: { field?: string[] | null; message: string; code?: string | null }[];
}

/**
 * What every reader of save_items selects. `fields { key value }` is one list of objects, which
 * the platform prices like a single object: a node costs 2 points where five aliased
 * `field(key:)` selections cost 6, so a page of 100 requests 202 points instead of 602.
 */
export const SAVE_ITEM_FRAGMENT = `#graphql
  fragment SaveItemNode on Metaobject {
    id
    updatedAt
    fields { key value }
  }`;

/** A save_item node as the service reads it; unknown values fall back to safe defaults. */
export function toSaveItemRecord(node: MetaobjectNode): SaveItemRecord {
  const field = (key: string) => node.fields.find((candidate) => candidate.key === key)?.value ?? null;
  const entityType = field("entity_type");
  return {
    id: node.id,
    updatedAtMs: Date.parse(node.updatedAt),
    context: field("context") ?? "",
    entityType: (ENTITY_TYPES as readonly string[]).includes(entityType ?? "") ? (entityType as EntityType) : "product",
    entityGid: field("entity_gid") ?? "",
    status: field("status") === "active" ? "active" : "removed",
    source: field("source"),
    savedAt: field("saved_at"),
    snapshot: field("snapshot"),
  };
}

const toFields = (fields: Record<string, string>) => Object.entries(fields).map(([key, value]) => ({ key, value }));

/**
 * Reads many save_items (and whether their lists exist) in ONE request, by handle, with one
 * aliased root field per handle: handle lookups are strongly consistent, unlike search.
 */
export async function readItemRecords(
  admin: AdminGraphqlClient,
  itemHandles: readonly string[],
  listHandles: readonly string[] = [],
): Promise<{ items: Map<string, SaveItemRecord | null>; lists: Map<string, string | null> }> {
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  itemHandles.forEach((handle, index) => {
    variableDefinitions.push(`$i${index}: MetaobjectHandleInput!`);
    selections.push(`i${index}: metaobjectByHandle(handle: $i${index}) { ...SaveItemNode }`);
    variables[`i${index}`] = { type: SAVE_ITEM_TYPE, handle };
  });
  listHandles.forEach((handle, index) => {
    variableDefinitions.push(`$l${index}: MetaobjectHandleInput!`);
    selections.push(`l${index}: metaobjectByHandle(handle: $l${index}) { id }`);
    variables[`l${index}`] = { type: SAVE_LIST_TYPE, handle };
  });
  const query = `#graphql
    query SavedItemsReadState(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }
    ${itemHandles.length > 0 ? SAVE_ITEM_FRAGMENT : ""}`;
  const data = await runAdminGraphql<Record<string, MetaobjectNode | { id: string } | null>>(admin, query, variables);
  const items = new Map<string, SaveItemRecord | null>();
  itemHandles.forEach((handle, index) => {
    const node = data[`i${index}`] as MetaobjectNode | null;
    items.set(handle, node ? toSaveItemRecord(node) : null);
  });
  const lists = new Map<string, string | null>();
  listHandles.forEach((handle, index) => lists.set(handle, data[`l${index}`]?.id ?? null));
  return { items, lists };
}

/**
 * The platform refuses a single query above 1,000 requested points and prices every mutation
 * field at 10: one document carries at most this many writes (list upserts included), with
 * room to spare for what their payloads select.
 */
export const MAX_WRITES_PER_MUTATION = 90;

/**
 * Applies list creations and item writes, each write reporting its own outcome (a user error on
 * one item never blocks the others). Root mutation fields run in order, so lists exist before
 * their first items. Up to MAX_WRITES_PER_MUTATION writes go in one request; a larger batch is
 * split, lists first, never refused for its cost. When a request fails as a whole, its writes and
 * those of the requests not yet sent report UNSENT_OR_UNKNOWN with the failure, while the writes
 * of the requests before it keep their true outcomes.
 */
export async function applyWrites(
  admin: AdminGraphqlClient,
  lists: readonly ListWrite[],
  writes: readonly ItemWrite[],
): Promise<WriteOutcome[]> {
  const all: ({ kind: "list"; list: ListWrite } | { kind: "item"; write: ItemWrite; index: number })[] = [
    ...lists.map((list) => ({ kind: "list" as const, list })),
    ...writes.map((write, index) => ({ kind: "item" as const, write, index })),
  ];
  const outcomes: WriteOutcome[] = [];
  for (let start = 0; start < all.length; start += MAX_WRITES_PER_MUTATION) {
    const chunk = all.slice(start, start + MAX_WRITES_PER_MUTATION);
    let data: Record<string, MutationPayload | null>;
    try {
      data = await runMutation(
        admin,
        chunk.map((entry) => (entry.kind === "list" ? entry.list : entry.write)),
      );
    } catch (error) {
      for (const entry of all.slice(start)) {
        if (entry.kind === "item") outcomes[entry.index] = { ok: false, code: "UNSENT_OR_UNKNOWN", error };
      }
      return outcomes;
    }
    chunk.forEach((entry, position) => {
      const result = data[`w${position}`];
      if (entry.kind === "list") {
        // Items carry their own list key, customer and context, so they stay valid without the
        // list record; the next save upserts it again. Failing the items would misreport writes.
        if (!result?.metaobject) {
          console.warn(
            `save_list ${entry.list.handle} was not written: ${result?.userErrors.map((e) => e.message).join("; ")}`,
          );
        }
        return;
      }
      if (result?.metaobject) {
        outcomes[entry.index] = { ok: true, id: result.metaobject.id };
        return;
      }
      const errors = result?.userErrors ?? [];
      const taken = errors.some((e) => e.code === "TAKEN");
      outcomes[entry.index] = {
        ok: false,
        code: taken ? "TAKEN" : "OTHER",
        message: errors.map((e) => e.message).join("; "),
      };
    });
  }
  return outcomes;
}

async function runMutation(
  admin: AdminGraphqlClient,
  entries: readonly (ListWrite | ItemWrite)[],
): Promise<Record<string, MutationPayload | null>> {
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  const payload = "metaobject { id } userErrors { field message code }";
  entries.forEach((entry, index) => {
    if (!("kind" in entry)) {
      variableDefinitions.push(`$h${index}: MetaobjectHandleInput!`, `$w${index}: MetaobjectUpsertInput!`);
      selections.push(`w${index}: metaobjectUpsert(handle: $h${index}, metaobject: $w${index}) { ${payload} }`);
      variables[`h${index}`] = { type: SAVE_LIST_TYPE, handle: entry.handle };
      variables[`w${index}`] = { fields: toFields({ customer_id: entry.customerGid, context: entry.context }) };
    } else if (entry.kind === "create") {
      variableDefinitions.push(`$w${index}: MetaobjectCreateInput!`);
      selections.push(`w${index}: metaobjectCreate(metaobject: $w${index}) { ${payload} }`);
      variables[`w${index}`] = { type: SAVE_ITEM_TYPE, handle: entry.handle, fields: toFields(entry.fields) };
    } else {
      variableDefinitions.push(`$id${index}: ID!`, `$w${index}: MetaobjectUpdateInput!`);
      selections.push(`w${index}: metaobjectUpdate(id: $id${index}, metaobject: $w${index}) { ${payload} }`);
      variables[`id${index}`] = entry.id;
      variables[`w${index}`] = { fields: toFields(entry.fields) };
    }
  });
  const query = `#graphql
    mutation SavedItemsApplyWrites(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }`;
  return runAdminGraphql<Record<string, MutationPayload | null>>(admin, query, variables);
}

const LIST_ACTIVE_ITEMS = `#graphql
  query SavedItemsListActive($type: String!, $first: Int!, $after: String, $query: String!) {
    metaobjects(type: $type, first: $first, after: $after, query: $query, sortKey: "updated_at", reverse: true) {
      edges { cursor node { ...SaveItemNode } }
      pageInfo { hasNextPage }
    }
  }
  ${SAVE_ITEM_FRAGMENT}`;

/**
 * One page of a list's active items, newest save first. Only activation and removal write an
 * item, so updated_at order is save order. Search is eventually consistent on the platform: a
 * write may show here a moment after it happened (the list-state cache covers that gap).
 */
export async function listActiveItems(
  admin: AdminGraphqlClient,
  listKey: string,
  first: number,
  after: string | undefined,
): Promise<{ items: (SaveItemRecord & { cursor: string })[]; hasNextPage: boolean }> {
  const data = await runAdminGraphql<{
    metaobjects: { edges: { cursor: string; node: MetaobjectNode }[]; pageInfo: { hasNextPage: boolean } };
  }>(admin, LIST_ACTIVE_ITEMS, {
    type: SAVE_ITEM_TYPE,
    first,
    after: after ?? null,
    query: `fields.list_key:"${listKey}" AND fields.status:"active"`,
  });
  return {
    items: data.metaobjects.edges.map((edge) => ({ ...toSaveItemRecord(edge.node), cursor: edge.cursor })),
    hasNextPage: data.metaobjects.pageInfo.hasNextPage,
  };
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
