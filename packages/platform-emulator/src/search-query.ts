// The subset of Shopify's search syntax (https://shopify.dev/api/usage/search-syntax) the
// emulator understands for `metaobjects(query:)`. Everything else is an error rather than being
// ignored, so the app cannot depend on a filter the emulator would not really apply.

export interface SearchTerm {
  /** "handle", "display_name" or "fields.<key>". */
  name: string;
  value: string;
}

const SUPPORTED =
  "supported: fields.<key>:<value>, handle:<value> and display_name:<value>, joined by whitespace or AND";

function fail(problem: string): never {
  throw new Error(`emulator: metaobjects query ${problem} (${SUPPORTED})`);
}

function checkName(name: string): void {
  if (name === "handle" || name === "display_name" || /^fields\.[A-Za-z0-9_-]+$/.test(name)) return;
  if (name.startsWith("-")) fail(`negation "${name}" is not supported`);
  if (name === "id" || name === "updated_at") fail(`filter "${name}" is not supported by the emulator`);
  fail(`filter "${name}" is unknown`);
}

function readQuoted(query: string, start: number): { value: string; end: number } {
  let value = "";
  for (let pos = start + 1; pos < query.length; pos += 1) {
    const char = query[pos];
    if (char === "\\") {
      pos += 1;
      value += query[pos] ?? "";
    } else if (char === '"') {
      const end = pos + 1;
      if (end < query.length && !/\s/.test(query[end] ?? "")) fail(`has text right after a closing quote at ${end}`);
      return { value, end };
    } else {
      value += char;
    }
  }
  return fail("has an unterminated quote");
}

function readBare(query: string, start: number): { value: string; end: number } {
  const value = /^\S*/.exec(query.slice(start))?.[0] ?? "";
  if (value === "") fail(`has a filter without a value at ${start}`);
  if (/^[<>=]/.test(value)) fail(`comparison "${value}" is not supported`);
  if (value.endsWith("*")) fail(`prefix match "${value}" is not supported`);
  // The platform's parser treats these as syntax, so an unquoted value containing them does not
  // mean what the app intends.
  if (/[:"()\\]/.test(value)) fail(`value "${value}" must be double-quoted`);
  return { value, end: start + value.length };
}

/** Parses a query into terms that must all match. Throws on anything outside the supported subset. */
export function parseSearchQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let afterAnd = false;
  let pos = 0;
  for (;;) {
    while (pos < query.length && /\s/.test(query[pos] ?? "")) pos += 1;
    if (pos >= query.length) break;
    const word = /^[^\s:"()]*/.exec(query.slice(pos))?.[0] ?? "";
    pos += word.length;
    if (query[pos] !== ":") {
      if (word === "AND" && terms.length > 0 && !afterAnd) {
        afterAnd = true;
        continue;
      }
      if (word === "OR" || word === "NOT") fail(`operator ${word} is not supported`);
      fail(`term "${word || query.slice(pos)}" is not supported`);
    }
    checkName(word);
    const read = query[pos + 1] === '"' ? readQuoted(query, pos + 1) : readBare(query, pos + 1);
    terms.push({ name: word, value: read.value });
    pos = read.end;
    afterAnd = false;
  }
  if (afterAnd) fail("ends with AND");
  return terms;
}
