/**
 * The tables tests/setup/per-file.ts does not empty before each test: the coordinator's own
 * registration (its mode row and its instance's Redis permit), which outlives a test as the
 * coordinator does. Emptied under it, its renewals failed ("No coordination mode row") and its
 * permit lapsed 45 s later, after which Redis read as away for the rest of the file. Their rows
 * are keyed by a scope, the file's Redis prefix or a test's own.
 */
export const KEPT_TABLES: ReadonlySet<string> = new Set(["CoordinationMode", "CoordinationInstance"]);
