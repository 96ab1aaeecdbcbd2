// The house rule of docs/architecture.md: imports only point down a layer (or stay within one),
// and nothing under app/ reaches into tests/ (the emulator and sandbox must never ship).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../sandbox/config";

/** Top to bottom; a file may import its own layer or any layer below it. */
const LAYERS = [
  { name: "routes", owns: ["app/routes/", "app/components/", "app/root.tsx", "app/entry.server.tsx"] },
  { name: "edge", owns: ["app/edge/", "app/shopify.server.ts"] },
  { name: "services", owns: ["app/services/"] },
  { name: "platform", owns: ["app/platform/"] },
  { name: "lib", owns: ["app/lib/", "app/config/", "app/db.server.ts", "app/types/"] },
] as const;

function layerOf(file: string): number {
  const index = LAYERS.findIndex((layer) => layer.owns.some((prefix) => file === prefix || file.startsWith(prefix)));
  if (index < 0)
    throw new Error(
      `${file} belongs to no layer; add it to LAYERS in ${path.relative(repoRoot, import.meta.filename)}`,
    );
  return index;
}

const ALL_FILES = new Set(sourceFiles("app"));

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
}

/** The repository-relative file an import specifier points at, or undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join("app", specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.join(path.dirname(from), specifier);
  else return undefined;
  const candidates = [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")];
  return candidates.find((candidate) => ALL_FILES.has(candidate)) ?? target;
}

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(repoRoot, file), "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((match) => match[1]!);
}

describe("layers", () => {
  const files = [...ALL_FILES];

  test("every import points down a layer or stays within its own", () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const specifier of importsOf(file)) {
        const target = resolveImport(file, specifier);
        if (!target || target.startsWith("tests/")) continue;
        if (layerOf(target) < layerOf(file)) {
          upward.push(`${file} (${LAYERS[layerOf(file)]!.name}) imports ${target} (${LAYERS[layerOf(target)]!.name})`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  test("nothing under app/ imports the tests' emulator or sandbox", () => {
    const intoTests = files.flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveImport(file, specifier))
        .filter((target): target is string => Boolean(target?.startsWith("tests/")))
        .map((target) => `${file} imports ${target}`),
    );
    expect(intoTests).toEqual([]);
  });
});
