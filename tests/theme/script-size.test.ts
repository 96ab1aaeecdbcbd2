// The storefront scripts: assets/saved-items-*.js are the esbuild build of the TypeScript in
// extensions/saved-items-theme-src (scripts/build-extensions.ts): a module per kind of block and
// the chunks they share. The platform's linter counts a schema script's raw bytes against 10,000;
// the blocks load theirs themselves, after the page (snippets/saved-items-script.liquid), so the
// linter no longer sees them and this test holds every file to the same limit. It also keeps the
// assets in sync with the source, measures them and checks their surface.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { describe, expect, test } from "vitest";
import {
  BUILD_COMMAND,
  isThemeScript,
  THEME_ASSETS,
  THEME_BLOCK_KINDS,
  THEME_SCRIPT_SOURCE,
  themeScriptBuild,
} from "../../scripts/build-extensions";

/** The theme linter's AssetSizeAppBlockJavaScript threshold for theme app extensions. */
const LIMIT_BYTES = 10_000;
const assets = () => readdirSync(THEME_ASSETS).filter(isThemeScript).sort();
const asset = (file: string) => readFileSync(path.join(THEME_ASSETS, file), "utf8");
/** The files a page with these kinds of block fetches: their modules and, transitively, what they import. */
function filesOf(kinds: readonly string[]): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, imported] of asset(file).matchAll(/from"\.\/([^"]+)"/g)) visit(imported!);
  };
  kinds.forEach((kind) => visit(`saved-items-${kind}.js`));
  return [...files];
}

describe("assets/saved-items-*.js", () => {
  test("are the build of extensions/saved-items-theme-src, and nothing else (rebuild with the command in the message when not)", async () => {
    const result = await build({ ...themeScriptBuild, write: false, logLevel: "silent" });
    const built = Object.fromEntries(result.outputFiles.map((file) => [path.basename(file.path), file.text]));
    const stale = `the assets are stale; run:\n  ${BUILD_COMMAND}\n`;
    expect(assets(), stale).toEqual(Object.keys(built).sort());
    for (const file of assets()) expect(asset(file), stale).toBe(built[file]);
  });

  test("each is under 10,000 bytes (and prints their sizes, and what a page of each kind fetches)", () => {
    const sourceBytes = readdirSync(THEME_SCRIPT_SOURCE, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .reduce((sum, file) => sum + readFileSync(path.join(THEME_SCRIPT_SOURCE, file)).length, 0);
    const bytes = (files: string[]) => files.reduce((sum, file) => sum + Buffer.byteLength(asset(file)), 0);
    const gzipped = (files: string[]) =>
      files.reduce((sum, file) => sum + gzipSync(asset(file), { level: 9 }).length, 0);
    const lines = assets().map((file) => `  ${file}: ${bytes([file])} B, gzip ${gzipped([file])} B`);
    for (const kinds of [["button", "cards"], ["cards"], ["list", "cards"], ["cart", "cards"]]) {
      const files = filesOf(kinds);
      lines.push(
        `  a page with ${kinds.join(" + ")}: ${files.length} files, ${bytes(files)} B, gzip ${gzipped(files)} B`,
      );
    }
    console.log(
      `theme scripts from ${sourceBytes} B of TypeScript (limit ${LIMIT_BYTES} B a file):\n${lines.join("\n")}`,
    );
    for (const file of assets()) expect(Buffer.byteLength(asset(file)), file).toBeLessThanOrEqual(LIMIT_BYTES);
  });

  test("a page fetches only its blocks' modules: the cart's code is in no other block's files", () => {
    const cartOnly = filesOf(["cart"]).filter((file) => !filesOf(["button", "list", "cards"]).includes(file));
    expect(cartOnly).toEqual(["saved-items-cart.js"]);
    for (const file of filesOf(["button", "list", "cards"])) expect(asset(file), file).not.toContain("cart/change.js");
  });

  test("list management loads with the Saved items block only; the Save button and the hearts import 'Save to…' when opened", () => {
    for (const file of filesOf(["button", "cards", "cart"]))
      expect(asset(file), file).not.toMatch(/(create|rename|delete)-list/);
    expect(filesOf(["list"]).some((file) => asset(file).includes("create-list"))).toBe(true);
    for (const file of filesOf(THEME_BLOCK_KINDS)) expect(asset(file), file).not.toContain(".si-picker");
    for (const kind of ["button", "cards"])
      expect(asset(`saved-items-${kind}.js`)).toMatch(/import\("\.\/saved-items-core-\w+\.js"\)/);
  });

  test("are ES2019: esbuild finds nothing left to lower for an ES2019 target", async () => {
    for (const file of assets()) {
      const minify = async (target: string) =>
        (await transform(asset(file), { minify: true, target, format: "esm" })).code;
      expect(await minify("es2019"), file).toBe(await minify("esnext"));
    }
  });

  test.each(THEME_BLOCK_KINDS)(
    "the %s module depends on nothing and adds only window.SavedItems (with init) to the page's globals",
    async (kind) => {
      // The module with its chunks, bundled as one classic script, so that a plain context can run it.
      const [entry] = themeScriptBuild.entryPoints.filter((point) => point.out === `saved-items-${kind}`);
      const { outputFiles } = await build({
        ...themeScriptBuild,
        entryPoints: [entry!.in],
        outdir: undefined,
        splitting: false,
        format: "iife",
        write: false,
        logLevel: "silent",
      });
      const listeners: string[] = [];
      const document = { readyState: "loading", addEventListener: (type: string) => listeners.push(type) };
      const window: Record<string, unknown> = { document };
      window.window = window;
      const before = Object.keys(window);
      runInNewContext(outputFiles[0]!.text, window);
      expect(Object.keys(window).filter((key) => !before.includes(key))).toEqual(["SavedItems"]);
      expect(Object.keys(window.SavedItems as object)).toEqual(["init"]);
      expect(listeners).toEqual(expect.arrayContaining(["DOMContentLoaded", "shopify:section:load"]));
    },
  );
});
