const MAX_PAGE_SIZE = 250;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

type SortValue = string | number;
type Position = readonly [SortValue, number];

export interface Page<T> {
  edges: { cursor: string; item: T }[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

function comparePositions(a: Position, b: Position): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

function checkPageSize(name: string, size: number | null | undefined): void {
  if (size != null && (size < 0 || size > MAX_PAGE_SIZE)) {
    throw new Error(
      `Argument '${name}' has an invalid value (${size}). Expected a page size from 0 to ${MAX_PAGE_SIZE}.`,
    );
  }
}

/**
 * Relay pagination over `items` ordered by (sort value, id). A cursor encodes that position, not
 * an index, so pages stay consistent when entries are written between requests.
 */
export function paginate<T>(
  items: readonly T[],
  sort: { key: string; valueOf: (item: T) => SortValue; idOf: (item: T) => number },
  args: PageArgs,
): Page<T> {
  if (args.first == null && args.last == null) throw new Error("you must provide one of first or last");
  checkPageSize("first", args.first);
  checkPageSize("last", args.last);

  const encode = (position: Position) => Buffer.from(JSON.stringify([sort.key, ...position])).toString("base64");
  const decode = (cursor: string): Position => {
    try {
      const [key, value, id] = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as unknown[];
      if (key === sort.key && (typeof value === "string" || typeof value === "number") && typeof id === "number") {
        return [value, id];
      }
    } catch {
      // Reported below like any other cursor that does not belong to this sort.
    }
    throw new Error("Invalid cursor for current pagination sort.");
  };

  const direction = args.reverse ? -1 : 1;
  const compare = (a: Position, b: Position) => direction * comparePositions(a, b);
  const ordered = items
    .map((item) => ({ item, position: [sort.valueOf(item), sort.idOf(item)] as const }))
    .sort((a, b) => compare(a.position, b.position));
  const firstIndexWhere = (test: (position: Position) => boolean) => {
    const index = ordered.findIndex((entry) => test(entry.position));
    return index < 0 ? ordered.length : index;
  };

  let from = 0;
  let to = ordered.length;
  if (args.after != null) {
    const after = decode(args.after);
    from = firstIndexWhere((position) => compare(position, after) > 0);
  }
  if (args.before != null) {
    const before = decode(args.before);
    to = Math.max(
      from,
      firstIndexWhere((position) => compare(position, before) >= 0),
    );
  }
  if (args.first != null) to = Math.min(to, from + args.first);
  if (args.last != null) from = Math.max(from, to - args.last);

  return {
    edges: ordered.slice(from, to).map(({ item, position }) => ({ cursor: encode(position), item })),
    hasNextPage: to < ordered.length,
    hasPreviousPage: from > 0,
  };
}
