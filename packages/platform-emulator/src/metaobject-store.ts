import type { MetaobjectDefinition } from "./app-config";
import { checkFieldValue } from "./field-types";
import { ENTRY_CAP_MESSAGE } from "./limits";

/** Values of the Admin schema's MetaobjectUserErrorCode enum that the emulator produces. */
export type MetaobjectUserErrorCode =
  | "BLANK"
  | "DUPLICATE_FIELD_INPUT"
  | "INVALID"
  | "INVALID_VALUE"
  | "MAX_OBJECTS_EXCEEDED"
  | "OBJECT_FIELD_REQUIRED"
  | "RECORD_NOT_FOUND"
  | "TAKEN"
  | "TOO_LONG"
  | "UNDEFINED_OBJECT_FIELD"
  | "UNDEFINED_OBJECT_TYPE";

export interface MetaobjectUserError {
  field: readonly string[] | null;
  message: string;
  code: MetaobjectUserErrorCode;
  elementKey: string | null;
  elementIndex: number | null;
}

export function userError(
  code: MetaobjectUserErrorCode,
  message: string,
  field: readonly string[] | null,
  elementKey: string | null = null,
): MetaobjectUserError {
  return { field, message, code, elementKey, elementIndex: null };
}

export interface FieldAssignment {
  key: string;
  /** An empty string clears the field. */
  value: string;
  /** Where a userError about this assignment points, e.g. ["metaobject", "fields", "2"]. */
  path: readonly string[];
}

export interface FieldWrite {
  /** Where a userError about a missing required field points. */
  path: readonly string[];
  assignments: FieldAssignment[];
  /** True for the `values: JSON` form, which replaces every field; false merges into the stored ones. */
  replace: boolean;
}

export interface HandleWrite {
  value: string;
  path: readonly string[];
}

export interface StoredMetaobject {
  numericId: number;
  id: string;
  definition: MetaobjectDefinition;
  handle: string;
  values: Map<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface WriteResult {
  entry: StoredMetaobject | null;
  userErrors: MetaobjectUserError[];
}

export interface MetaobjectStore {
  create(definition: MetaobjectDefinition, handle: HandleWrite | undefined, write: FieldWrite): WriteResult;
  update(entry: StoredMetaobject, handle: HandleWrite | undefined, write: FieldWrite): WriteResult;
  get(numericId: number): StoredMetaobject | undefined;
  findByHandle(definition: MetaobjectDefinition, handle: string): StoredMetaobject | undefined;
  /** Entries in id order, optionally of one type only. */
  list(definition?: MetaobjectDefinition): StoredMetaobject[];
  /** How many entries the definition has (MetaobjectDefinition.metaobjectsCount). */
  count(definition: MetaobjectDefinition): number;
  /**
   * Entries of a type in id order as the platform's search index has them: each write shows
   * `searchLagMs` after it happened, so a search may miss new entries, match on old values or
   * still find deleted ones. The snapshots only serve to match and sort.
   */
  searchable(definition: MetaobjectDefinition): StoredMetaobject[];
  delete(numericId: number): boolean;
  /**
   * Stores many entries at once without the per-write checks (a seed of 10,000+ items would be
   * quadratic through create's handle checks); handles must be unique and values valid, and the
   * entries must fit under the cap.
   */
  importMany(definition: MetaobjectDefinition, entries: readonly ImportedMetaobject[]): void;
}

export interface ImportedMetaobject {
  handle: string;
  fields: Record<string, string>;
  /** ISO 8601; now when absent. */
  createdAt?: string;
}

const HANDLE_MAX = 255;
// The platform does not document its handle charset; the app generates handles from this set, so
// anything else is treated as an app bug.
const HANDLE_CHARSET = /^[a-z0-9-]+$/;

export function displayNameOf(entry: StoredMetaobject): string {
  const key = entry.definition.displayNameKey;
  const value = key === undefined ? undefined : entry.values.get(key);
  return value ?? `${entry.definition.name} #${entry.handle}`;
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, HANDLE_MAX - 10);
}

/** One shop's metaobject entries. Every write validates everything first and writes nothing on error. */
export function createMetaobjectStore(deps: {
  nextId: () => number;
  now: () => Date;
  searchLagMs: () => number;
  /** How many entries one definition may hold (limits.ts). */
  entryCap: () => number;
}): MetaobjectStore {
  const entries = new Map<number, StoredMetaobject>();
  // Kept with every create and delete: counting the entries on each create would make a
  // seeded shop's writes linear in its size.
  const counts = new Map<MetaobjectDefinition, number>();
  const count = (definition: MetaobjectDefinition) => counts.get(definition) ?? 0;
  const store = (entry: StoredMetaobject) => {
    entries.set(entry.numericId, entry);
    counts.set(entry.definition, count(entry.definition) + 1);
    indexWrite(entry.numericId, entry);
  };
  // Per entry, its writes in order as the search index will see them; undefined marks a deletion.
  const searchIndex = new Map<number, { visibleAtMs: number; snapshot: StoredMetaobject | undefined }[]>();
  let lastStampMs = Number.NEGATIVE_INFINITY;

  /** What the index shows for an entry now, after forgetting the writes that can no longer show. */
  function indexed(numericId: number, nowMs: number): StoredMetaobject | undefined {
    const versions = searchIndex.get(numericId);
    const latest = versions?.findLastIndex((version) => version.visibleAtMs <= nowMs) ?? -1;
    if (!versions || latest < 0) return undefined;
    // Once a write shows, the ones before it never will again; a deletion that shows ends the entry.
    versions.splice(0, latest);
    const { snapshot } = versions[0]!;
    if (!snapshot && versions.length === 1) searchIndex.delete(numericId);
    return snapshot;
  }

  function indexWrite(numericId: number, entry: StoredMetaobject | undefined): void {
    const nowMs = deps.now().getTime();
    indexed(numericId, nowMs);
    let versions = searchIndex.get(numericId);
    if (!versions) searchIndex.set(numericId, (versions = []));
    // A shallow copy is a snapshot: writes replace an entry's values Map rather than change it.
    versions.push({ visibleAtMs: nowMs + deps.searchLagMs(), snapshot: entry && { ...entry } });
  }

  // Strictly increasing per shop, so sorting by updated_at is deterministic even for writes that
  // land in the same millisecond.
  function stamp(): string {
    lastStampMs = Math.max(deps.now().getTime(), lastStampMs + 1);
    return new Date(lastStampMs).toISOString();
  }

  function findByHandle(definition: MetaobjectDefinition, handle: string): StoredMetaobject | undefined {
    for (const entry of entries.values()) {
      if (entry.definition === definition && entry.handle === handle) return entry;
    }
    return undefined;
  }

  function checkHandle(
    definition: MetaobjectDefinition,
    handle: HandleWrite,
    self: StoredMetaobject | undefined,
  ): MetaobjectUserError[] {
    if (handle.value === "") return [userError("BLANK", "Handle can't be blank", handle.path)];
    if (handle.value.length > HANDLE_MAX) {
      return [userError("TOO_LONG", `Handle is too long (maximum is ${HANDLE_MAX} characters)`, handle.path)];
    }
    if (!HANDLE_CHARSET.test(handle.value)) {
      return [userError("INVALID", "Handle may only contain lowercase letters, digits and hyphens", handle.path)];
    }
    const owner = findByHandle(definition, handle.value);
    if (owner && owner !== self) return [userError("TAKEN", "Handle has already been taken", handle.path)];
    return [];
  }

  function generateHandle(definition: MetaobjectDefinition, values: Map<string, string>): string {
    const display = definition.displayNameKey === undefined ? undefined : values.get(definition.displayNameKey);
    const base = slugify(display ?? "") || slugify(definition.name) || "metaobject";
    let handle = base;
    for (let suffix = 1; findByHandle(definition, handle); suffix += 1) handle = `${base}-${suffix}`;
    return handle;
  }

  function applyFields(
    definition: MetaobjectDefinition,
    stored: Map<string, string>,
    write: FieldWrite,
    errors: MetaobjectUserError[],
  ): Map<string, string> {
    const values = write.replace ? new Map<string, string>() : new Map(stored);
    const seen = new Set<string>();
    const failed = new Set<string>();
    for (const { key, value, path } of write.assignments) {
      const field = definition.fields.find((candidate) => candidate.key === key);
      let problem: MetaobjectUserError | undefined;
      if (seen.has(key)) {
        problem = userError("DUPLICATE_FIELD_INPUT", `Field "${key}" is given more than once`, path, key);
      } else if (!field) {
        problem = userError("UNDEFINED_OBJECT_FIELD", `Field definition "${key}" does not exist`, path, key);
      } else if (value !== "") {
        const reason = checkFieldValue(field.type, value);
        if (reason) problem = userError("INVALID_VALUE", reason, path, key);
      }
      seen.add(key);
      if (problem) {
        errors.push(problem);
        failed.add(key);
      } else if (value === "") {
        values.delete(key);
      } else {
        values.set(key, value);
      }
    }
    for (const field of definition.fields) {
      if (!field.required || values.has(field.key) || failed.has(field.key)) continue;
      const cleared = write.assignments.find((assignment) => assignment.key === field.key);
      errors.push(
        userError("OBJECT_FIELD_REQUIRED", `${field.name} can't be blank`, cleared?.path ?? write.path, field.key),
      );
    }
    return values;
  }

  return {
    create(definition, handle, write) {
      // shopify.dev "Metaobject limits": at most entryCap entries per definition; updates and
      // deletes go on at the cap, and a delete frees room.
      if (count(definition) >= deps.entryCap()) {
        return { entry: null, userErrors: [userError("MAX_OBJECTS_EXCEEDED", ENTRY_CAP_MESSAGE, null)] };
      }
      const userErrors = handle ? checkHandle(definition, handle, undefined) : [];
      const values = applyFields(definition, new Map(), write, userErrors);
      if (userErrors.length > 0) return { entry: null, userErrors };
      const numericId = deps.nextId();
      const createdAt = stamp();
      const entry: StoredMetaobject = {
        numericId,
        id: `gid://shopify/Metaobject/${numericId}`,
        definition,
        handle: handle?.value ?? generateHandle(definition, values),
        values,
        createdAt,
        updatedAt: createdAt,
      };
      store(entry);
      return { entry, userErrors };
    },
    update(entry, handle, write) {
      const userErrors = handle ? checkHandle(entry.definition, handle, entry) : [];
      const values = applyFields(entry.definition, entry.values, write, userErrors);
      if (userErrors.length > 0) return { entry: null, userErrors };
      entry.values = values;
      if (handle) entry.handle = handle.value;
      entry.updatedAt = stamp();
      indexWrite(entry.numericId, entry);
      return { entry, userErrors };
    },
    get: (numericId) => entries.get(numericId),
    findByHandle,
    // A Map iterates in insertion order, which is id order because ids only grow.
    list: (definition) => [...entries.values()].filter((entry) => !definition || entry.definition === definition),
    count,
    searchable(definition) {
      const nowMs = deps.now().getTime();
      const visible: StoredMetaobject[] = [];
      // Ids only grow, so the index's insertion order is id order.
      for (const numericId of [...searchIndex.keys()]) {
        const snapshot = indexed(numericId, nowMs);
        if (snapshot?.definition === definition) visible.push(snapshot);
      }
      return visible;
    },
    delete(numericId) {
      const entry = entries.get(numericId);
      if (!entry) return false;
      entries.delete(numericId);
      counts.set(entry.definition, count(entry.definition) - 1);
      indexWrite(numericId, undefined);
      return true;
    },
    importMany(definition, imported) {
      if (count(definition) + imported.length > deps.entryCap()) {
        throw new Error(
          `emulator: import of ${imported.length} ${definition.type} entries passes the cap of ${deps.entryCap()} (${count(definition)} stored)`,
        );
      }
      const taken = new Set([...entries.values()].filter((e) => e.definition === definition).map((e) => e.handle));
      for (const { handle, fields, createdAt } of imported) {
        if (taken.has(handle)) throw new Error(`emulator: import of ${definition.type} repeats handle ${handle}`);
        taken.add(handle);
        const numericId = deps.nextId();
        const stamped = createdAt ?? stamp();
        const entry: StoredMetaobject = {
          numericId,
          id: `gid://shopify/Metaobject/${numericId}`,
          definition,
          handle,
          values: new Map(Object.entries(fields)),
          createdAt: stamped,
          updatedAt: stamped,
        };
        store(entry);
      }
    },
  };
}
