import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import type { EntityType, ItemState } from "./schemas";

export const SAVE_LIST_TYPE = "$app:save_list";
export const SAVE_ITEM_TYPE = "$app:save_item";

export interface StoredItemState {
  id: string;
  status: ItemState;
}

export interface StoredListItem {
  id: string;
  entityType: EntityType;
  entityGid: string;
  status: string;
  savedAt: string | null;
  snapshot: string | null;
}

/** Everything a write needs; fields are the save_item metaobject's keys (see shopify.app.toml). */
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
  | { ok: false; code: "TAKEN" | "OTHER"; message: string };

interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}
interface MutationPayload {
  metaobject: { id: string } | null;
  userErrors: UserError[];
}
interface FieldValue {
  value: string | null;
}

const toFields = (fields: Record<string, string>) =>
  Object.entries(fields).map(([key, value]) => ({ key, value }));

/**
 * Reads the state of many save_items (and whether their lists exist) in ONE request, by handle,
 * with one aliased root field per handle.
 */
export async function readItemStates(
  admin: AdminGraphqlClient,
  itemHandles: string[],
  listHandles: string[] = [],
): Promise<{ items: Map<string, StoredItemState | null>; lists: Map<string, string | null> }> {
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  itemHandles.forEach((handle, index) => {
    variableDefinitions.push(`$i${index}: MetaobjectHandleInput!`);
    selections.push(`i${index}: metaobjectByHandle(handle: $i${index}) { id status: field(key: "status") { value } }`);
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
    }`;
  const data = await runAdminGraphql<Record<string, { id: string; status?: FieldValue | null } | null>>(
    admin,
    query,
    variables,
  );
  const items = new Map<string, StoredItemState | null>();
  itemHandles.forEach((handle, index) => {
    const node = data[`i${index}`];
    items.set(handle, node ? { id: node.id, status: node.status?.value === "active" ? "active" : "removed" } : null);
  });
  const lists = new Map<string, string | null>();
  listHandles.forEach((handle, index) => lists.set(handle, data[`l${index}`]?.id ?? null));
  return { items, lists };
}

/**
 * Applies list creations and item writes in ONE mutation request. Root mutation fields run in
 * order, so lists exist before their first items; each write reports its own outcome, and a
 * user error on one item never blocks the others.
 */
export async function applyWrites(
  admin: AdminGraphqlClient,
  lists: ListWrite[],
  writes: ItemWrite[],
): Promise<WriteOutcome[]> {
  if (lists.length === 0 && writes.length === 0) return [];
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  const payload = "metaobject { id } userErrors { field message code }";
  lists.forEach((list, index) => {
    variableDefinitions.push(`$lh${index}: MetaobjectHandleInput!`, `$lv${index}: MetaobjectUpsertInput!`);
    selections.push(`l${index}: metaobjectUpsert(handle: $lh${index}, metaobject: $lv${index}) { ${payload} }`);
    variables[`lh${index}`] = { type: SAVE_LIST_TYPE, handle: list.handle };
    variables[`lv${index}`] = { fields: toFields({ customer_id: list.customerGid, context: list.context }) };
  });
  writes.forEach((write, index) => {
    if (write.kind === "create") {
      variableDefinitions.push(`$w${index}: MetaobjectCreateInput!`);
      selections.push(`w${index}: metaobjectCreate(metaobject: $w${index}) { ${payload} }`);
      variables[`w${index}`] = { type: SAVE_ITEM_TYPE, handle: write.handle, fields: toFields(write.fields) };
    } else {
      variableDefinitions.push(`$wid${index}: ID!`, `$w${index}: MetaobjectUpdateInput!`);
      selections.push(`w${index}: metaobjectUpdate(id: $wid${index}, metaobject: $w${index}) { ${payload} }`);
      variables[`wid${index}`] = write.id;
      variables[`w${index}`] = { fields: toFields(write.fields) };
    }
  });
  const query = `#graphql
    mutation SavedItemsApplyWrites(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }`;
  const data = await runAdminGraphql<Record<string, MutationPayload | null>>(admin, query, variables);

  lists.forEach((list, index) => {
    const result = data[`l${index}`];
    // Items carry their own list key, customer and context, so they stay valid without the list
    // record; the next save upserts it again. Failing the items here would misreport writes that did happen.
    if (!result?.metaobject) {
      console.warn(`save_list ${list.handle} was not written: ${result?.userErrors.map((e) => e.message).join("; ")}`);
    }
  });
  return writes.map((_, index) => {
    const result = data[`w${index}`];
    if (result?.metaobject) return { ok: true, id: result.metaobject.id };
    const errors = result?.userErrors ?? [];
    const taken = errors.some((e) => e.code === "TAKEN");
    return { ok: false, code: taken ? "TAKEN" : "OTHER", message: errors.map((e) => e.message).join("; ") };
  });
}

/** The save_item fields every reader of items selects; append it to the document that spreads it. */
export const SAVE_ITEM_FIELDS_FRAGMENT = `#graphql
  fragment SaveItemFields on Metaobject {
    id
    entityType: field(key: "entity_type") { value }
    entityGid: field(key: "entity_gid") { value }
    status: field(key: "status") { value }
    savedAt: field(key: "saved_at") { value }
    snapshot: field(key: "snapshot") { value }
  }`;

const LIST_ACTIVE_ITEMS = `#graphql
  query SavedItemsListActive($type: String!, $first: Int!, $after: String, $query: String!) {
    metaobjects(type: $type, first: $first, after: $after, query: $query, sortKey: "updated_at", reverse: true) {
      nodes { ...SaveItemFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${SAVE_ITEM_FIELDS_FRAGMENT}`;

interface ListNode {
  id: string;
  entityType: FieldValue | null;
  entityGid: FieldValue | null;
  status: FieldValue | null;
  savedAt: FieldValue | null;
  snapshot: FieldValue | null;
}

/**
 * One page of a list's active items, newest save first. Only active items are ever touched by a
 * write (a save activates, a remove deactivates), so updated_at order is save order.
 */
export async function listActiveItems(
  admin: AdminGraphqlClient,
  listKey: string,
  first: number,
  after: string | undefined,
): Promise<{ items: StoredListItem[]; hasNextPage: boolean; endCursor: string | null }> {
  const data = await runAdminGraphql<{
    metaobjects: { nodes: ListNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  }>(admin, LIST_ACTIVE_ITEMS, {
    type: SAVE_ITEM_TYPE,
    first,
    after: after ?? null,
    query: `fields.list_key:"${listKey}" AND fields.status:"active"`,
  });
  return {
    items: data.metaobjects.nodes.map((node) => ({
      id: node.id,
      entityType: (node.entityType?.value ?? "product") as EntityType,
      entityGid: node.entityGid?.value ?? "",
      status: node.status?.value ?? "active",
      savedAt: node.savedAt?.value ?? null,
      snapshot: node.snapshot?.value ?? null,
    })),
    hasNextPage: data.metaobjects.pageInfo.hasNextPage,
    endCursor: data.metaobjects.pageInfo.endCursor,
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
