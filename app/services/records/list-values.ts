import { fieldValue, parseStoredJson, SAVE_LIST_FIELDS, storedJson } from "./fields";
import { isoSeconds, parseRemovedItems, storedStrings, type RemovedItems } from "./stored-values";

/**
 * A save_list as the services see it, from any document that selects its `fields { key value }`,
 * and the fields a write of one sets: the one place that spells a list's field keys and the
 * stored form of their values.
 */

export interface StoredList {
  id: string;
  context: string | null;
  customerGid: string | null;
  name: string | null;
  deleted: boolean;
  deletedAtMs: number | null;
  /** The handles of its active items; null for a list written before lists kept an index. */
  index: string[] | null;
  /** Its removed items still stored; null for a list written before lists kept them. */
  removed: RemovedItems | null;
  /** The sha256 of its share link's token; null: not shared. */
  shareTokenHash: string | null;
  shareName: string | null;
}

interface ListNode {
  id: string;
  fields: readonly { key: string; value?: string | null }[];
}

export function toStoredList(node: ListNode): StoredList {
  const field = (key: string) => fieldValue(node.fields, key);
  const index = parseStoredJson(field(SAVE_LIST_FIELDS.activeItems));
  const deletedAt = field(SAVE_LIST_FIELDS.deletedAt);
  return {
    id: node.id,
    context: field(SAVE_LIST_FIELDS.context),
    customerGid: field(SAVE_LIST_FIELDS.customerId),
    name: field(SAVE_LIST_FIELDS.name),
    deleted: deletedAt !== null,
    deletedAtMs: deletedAt === null ? null : Date.parse(deletedAt),
    index: Array.isArray(index) ? storedStrings(index) : null,
    removed: parseRemovedItems(parseStoredJson(field(SAVE_LIST_FIELDS.removedItems))),
    shareTokenHash: field(SAVE_LIST_FIELDS.shareTokenHash),
    shareName: field(SAVE_LIST_FIELDS.shareName),
  };
}

/**
 * What a write of a list sets; a field left undefined is not written, and null clears it (the
 * platform stores no empty value).
 */
export interface ListFieldsWrite {
  owner?: { customerGid: string; context: string };
  name?: string | null;
  deletedAt?: Date | null;
  index?: readonly string[];
  removed?: RemovedItems;
  share?: { hash: string; name: string | null } | null;
}

export function listFields(write: ListFieldsWrite): Record<string, string> {
  const { owner, share } = write;
  return {
    ...(owner ? { [SAVE_LIST_FIELDS.customerId]: owner.customerGid, [SAVE_LIST_FIELDS.context]: owner.context } : {}),
    ...(write.name !== undefined ? { [SAVE_LIST_FIELDS.name]: write.name ?? "" } : {}),
    ...(write.deletedAt !== undefined
      ? { [SAVE_LIST_FIELDS.deletedAt]: write.deletedAt ? isoSeconds(write.deletedAt) : "" }
      : {}),
    ...(write.index ? { [SAVE_LIST_FIELDS.activeItems]: storedJson(write.index) } : {}),
    ...(write.removed ? { [SAVE_LIST_FIELDS.removedItems]: storedJson(write.removed) } : {}),
    ...(share !== undefined
      ? { [SAVE_LIST_FIELDS.shareTokenHash]: share?.hash ?? "", [SAVE_LIST_FIELDS.shareName]: share?.name ?? "" }
      : {}),
  };
}
