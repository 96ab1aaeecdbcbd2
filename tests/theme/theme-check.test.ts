// The platform's theme linter (@shopify/theme-check-node, the checks `shopify app deploy` runs) over
// the theme app extension, with the theme-app-extension config it picks for a directory holding a
// shopify.extension.toml. Offline: the docs updater would download the Liquid docs and JSON schemas
// from the network; SHOPIFY_TLD_ROOT points it at a local mirror of the data bundled in
// @shopify/theme-check-docs-updater, and XDG_CACHE_HOME keeps its cache in a temp dir.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

const EXTENSION = path.join(repoRoot, "extensions/saved-items-theme");
const require = createRequire(import.meta.url);

/** Lays the bundled docs data out as the theme-liquid-docs repository does (data/, schemas/). */
function offlineDocsMirror(dir: string): void {
  const bundled = path.join(path.dirname(require.resolve("@shopify/theme-check-docs-updater/package.json")), "data");
  const resources = ["filters", "objects", "tags", "latest", "shopify_system_translations"];
  mkdirSync(path.join(dir, "data"), { recursive: true });
  mkdirSync(path.join(dir, "schemas/theme"), { recursive: true });
  for (const file of readdirSync(bundled)) {
    const name = path.basename(file, ".json");
    if (resources.includes(name)) cpSync(path.join(bundled, file), path.join(dir, "data", file));
    else if (name.startsWith("manifest_")) cpSync(path.join(bundled, file), path.join(dir, "schemas", file));
    else cpSync(path.join(bundled, file), path.join(dir, "schemas/theme", file));
  }
}

type ThemeCheck = typeof import("@shopify/theme-check-node");
let tmp: string;
let themeCheck: ThemeCheck;
const log: string[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), "theme-check-"));
  offlineDocsMirror(path.join(tmp, "docs"));
  process.env.SHOPIFY_TLD_ROOT = path.join(tmp, "docs");
  process.env.XDG_CACHE_HOME = path.join(tmp, "cache"); // read by env-paths when the module loads
  themeCheck = await import("@shopify/theme-check-node");
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("theme check over extensions/saved-items-theme", () => {
  test("uses the theme-app-extension checks and reports no errors", async () => {
    const run = await themeCheck.themeCheckRun(EXTENSION, undefined, (message) => log.push(message));
    expect(run.config.context).toBe("app");
    expect(run.config.checks.map((check) => check.meta.code)).toEqual(
      expect.arrayContaining([
        "AppBlockValidTags",
        "AssetSizeAppBlockJavaScript",
        "MatchingTranslations",
        "TranslationKeyExists",
      ]),
    );
    const files = run.theme.map((file) => path.relative(EXTENSION, new URL(file.uri).pathname)).sort();
    expect(files).toEqual(
      expect.arrayContaining(["blocks/save-button.liquid", "blocks/saved-items-embed.liquid", "locales/fr.json"]),
    );
    const report = run.offenses.map(
      (o) =>
        `${path.relative(EXTENSION, new URL(o.uri).pathname)}:${o.start.line + 1} ${o.check} [severity ${o.severity}] ${o.message}`,
    );
    if (report.length) console.log(`theme check offenses:\n  ${report.join("\n  ")}`);
    expect(
      run.offenses.filter((o) => o.severity === themeCheck.Severity.ERROR).map((o) => `${o.check}: ${o.message}`),
    ).toEqual([]);
    // Nothing came from the network: every resource was read from the local mirror.
    expect(log.join("\n")).not.toMatch(/Failed to (download|setup)/);
  }, 60_000);

  test("is not vacuous: a copy with a parser-blocking script, a missing translation and a hardcoded route fails", async () => {
    const copy = path.join(tmp, "broken-extension");
    cpSync(EXTENSION, copy, { recursive: true });
    appendFileSync(
      path.join(copy, "snippets/saved-items-icon.liquid"),
      "{{ 'saved_items.nope' | t }}<a href=\"/account/login\">x</a>\n" +
        "<script src=\"{{ 'saved-items.js' | asset_url }}\"></script>\n",
    );
    const offenses = await themeCheck.check(copy);
    expect(offenses.map((o) => o.check)).toEqual(
      expect.arrayContaining(["ParserBlockingScript", "TranslationKeyExists", "HardcodedRoutes"]),
    );
  }, 60_000);
});
