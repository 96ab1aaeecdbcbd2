// The README promises that `npm install` works on Node 20 and explains every engine warning it prints
// there; these keep that true when a dependency or the root's engines change.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

// semver has no type declarations of its own; these are the two calls used.
const semver = createRequire(import.meta.url)("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

type Manifest = { engines?: { node?: string }; devEngines?: { runtime?: { name: string; version: string } } };
const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, Manifest & { optional?: boolean }>;
};
const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The oldest Node that installing is declared to need. */
function installNode(): string {
  const runtime = pkg.devEngines?.runtime;
  expect(runtime?.name, "package.json devEngines.runtime").toBe("node");
  return semver.minVersion(runtime!.version)!.version;
}

describe("npm install on Node 20", () => {
  test("installing admits Node 20 and the root's engines are left to the run time", () => {
    const oldest = installNode();
    expect(semver.satisfies(oldest, "20")).toBe(true);
    // npm skips the root's `engines` when `devEngines` is there: without it, this would warn.
    expect(semver.satisfies(oldest, pkg.engines!.node!)).toBe(false);
  });

  test("the README names exactly the packages that warn", () => {
    const oldest = installNode();
    const warn = new Set<string>();
    for (const [where, entry] of Object.entries(lock.packages)) {
      // npm drops an optional package whose engines do not fit, silently.
      const range = entry.engines?.node;
      if (!where || entry.optional || !range || semver.satisfies(oldest, range)) continue;
      warn.add(where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
    }
    const paragraph = readme.slice(readme.indexOf("npm warns `EBADENGINE`")).split("\n- ")[0]!;
    const named = [...paragraph.split(":")[0]!.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);
    expect(named.filter((name) => name !== "EBADENGINE").sort()).toEqual([...warn].sort());
  });
});
