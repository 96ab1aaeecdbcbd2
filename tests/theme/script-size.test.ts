// The storefront script: assets/saved-items.js is the esbuild-minified form of the hand-written
// extensions/saved-items-theme-src/saved-items.js (the platform's linter counts the asset's raw bytes
// against 10 KB). This test keeps the two in sync, measures the script and checks its surface.
import { readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../sandbox/config";

const SOURCE = path.join(repoRoot, "extensions/saved-items-theme-src/saved-items.js");
const ASSET = path.join(repoRoot, "extensions/saved-items-theme/assets/saved-items.js");
const BUILD_COMMAND =
  "npx esbuild extensions/saved-items-theme-src/saved-items.js --minify --target=es2019 --outfile=extensions/saved-items-theme/assets/saved-items.js";
/** The theme linter's AssetSizeAppBlockJavaScript threshold for theme app extensions. */
const LIMIT_BYTES = 10_000;

const minify = async (code: string, target: string) => (await transform(code, { minify: true, target })).code;
/** Exactly what BUILD_COMMAND writes. */
async function buildAsset(): Promise<string> {
  const result = await build({ entryPoints: [SOURCE], minify: true, target: "es2019", write: false, outfile: ASSET, logLevel: "silent" });
  return result.outputFiles[0]!.text;
}

describe("assets/saved-items.js", () => {
  test("is the minified hand-written source (rebuild with the command in the message when it is not)", async () => {
    expect(readFileSync(ASSET, "utf8"), `the asset is stale; run:\n  ${BUILD_COMMAND}\n`).toBe(await buildAsset());
  });

  test("is under 10 KB minified (and prints its sizes)", async () => {
    const source = readFileSync(SOURCE);
    const asset = readFileSync(ASSET);
    const gzipped = gzipSync(asset, { level: 9 }).length;
    console.log(
      `saved-items.js: source ${source.length} B, minified ${asset.length} B (limit ${LIMIT_BYTES} B), minified+gzip ${gzipped} B`,
    );
    expect(asset.length).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  test("is ES2019: esbuild has nothing to lower for an ES2019 target", async () => {
    const source = readFileSync(SOURCE, "utf8");
    expect(await minify(source, "es2019")).toBe(await minify(source, "esnext"));
  });

  test("depends on nothing and adds only window.SavedItems (with init) to the page's globals", () => {
    const listeners: string[] = [];
    const document = { readyState: "loading", addEventListener: (type: string) => listeners.push(type) };
    const window: Record<string, unknown> = { document };
    window.window = window;
    const before = Object.keys(window);
    runInNewContext(readFileSync(ASSET, "utf8"), window);
    expect(Object.keys(window).filter((key) => !before.includes(key))).toEqual(["SavedItems"]);
    expect(Object.keys(window.SavedItems as object)).toEqual(["init"]);
    expect(listeners).toEqual(expect.arrayContaining(["DOMContentLoaded", "shopify:section:load"]));
  });
});
