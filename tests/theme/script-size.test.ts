// The storefront script: assets/saved-items.js is the esbuild build of the TypeScript in
// extensions/saved-items-theme-src (scripts/build-extensions.ts). The platform's linter counts a
// schema script's raw bytes against 10,000; the blocks load this one themselves, after the page
// (snippets/saved-items-script.liquid), so the linter no longer sees it and this test holds it to
// the same limit. It also keeps the two in sync, measures the script and checks its surface.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { describe, expect, test } from "vitest";
import {
  BUILD_COMMAND,
  THEME_SCRIPT_ASSET,
  THEME_SCRIPT_SOURCE,
  themeScriptBuild,
} from "../../scripts/build-extensions";

/** The theme linter's AssetSizeAppBlockJavaScript threshold for theme app extensions. */
const LIMIT_BYTES = 10_000;
const asset = () => readFileSync(THEME_SCRIPT_ASSET, "utf8");

describe("assets/saved-items.js", () => {
  test("is the build of extensions/saved-items-theme-src (rebuild with the command in the message when it is not)", async () => {
    const result = await build({ ...themeScriptBuild, write: false, logLevel: "silent" });
    expect(asset(), `the asset is stale; run:\n  ${BUILD_COMMAND}\n`).toBe(result.outputFiles[0]!.text);
  });

  test("is under 10,000 bytes (and prints its sizes)", () => {
    const sourceBytes = readdirSync(THEME_SCRIPT_SOURCE)
      .filter((file) => file.endsWith(".ts"))
      .reduce((sum, file) => sum + readFileSync(path.join(THEME_SCRIPT_SOURCE, file)).length, 0);
    const bytes = Buffer.byteLength(asset());
    const gzipped = gzipSync(asset(), { level: 9 }).length;
    console.log(
      `saved-items.js: TypeScript ${sourceBytes} B, built ${bytes} B (limit ${LIMIT_BYTES} B), built+gzip ${gzipped} B`,
    );
    expect(bytes).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  test("is ES2019: esbuild finds nothing left to lower for an ES2019 target", async () => {
    const minify = async (target: string) => (await transform(asset(), { minify: true, target })).code;
    expect(await minify("es2019")).toBe(await minify("esnext"));
  });

  test("depends on nothing and adds only window.SavedItems (with init) to the page's globals", () => {
    const listeners: string[] = [];
    const document = { readyState: "loading", addEventListener: (type: string) => listeners.push(type) };
    const window: Record<string, unknown> = { document };
    window.window = window;
    const before = Object.keys(window);
    runInNewContext(asset(), window);
    expect(Object.keys(window).filter((key) => !before.includes(key))).toEqual(["SavedItems"]);
    expect(Object.keys(window.SavedItems as object)).toEqual(["init"]);
    expect(listeners).toEqual(expect.arrayContaining(["DOMContentLoaded", "shopify:section:load"]));
  });
});
