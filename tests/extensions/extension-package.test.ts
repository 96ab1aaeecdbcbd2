import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { parse } from "smol-toml";
import { describe, expect, test } from "vitest";
import { PAGE_EXTENSION_HANDLE, PAGE_EXTENSION_URL } from "../../extensions/saved-items-account/src/lib/constants";
import { errorMessageKey } from "../../extensions/saved-items-account/src/lib/error-messages";
import { SavedItemsError } from "../../extensions/shared/errors";

const ROOT = path.resolve(__dirname, "../../extensions/saved-items-account");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

interface ExtensionToml {
  api_version: string;
  extensions: {
    name: string;
    handle: string;
    type: string;
    targeting: { target: string; module: string }[];
    capabilities?: { network_access?: boolean };
    settings?: { fields: { key: string; type: string }[] };
  }[];
}

const toml = parse(read("shopify.extension.toml")) as unknown as ExtensionToml;

describe("shopify.extension.toml", () => {
  test("declares the full page and the profile block as two UI extensions (a full page cannot share an extension)", () => {
    expect(toml.extensions.map((extension) => [extension.handle, extension.type, extension.targeting.map((t) => t.target)])).toEqual([
      ["saved-items-page", "ui_extension", ["customer-account.page.render"]],
      ["saved-items-profile-block", "ui_extension", ["customer-account.profile.block.render"]],
    ]);
  });

  test("uses the API version of the installed @shopify/ui-extensions", () => {
    const manifest = path.resolve(__dirname, "../../node_modules/@shopify/ui-extensions/package.json");
    const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
    const [year, month] = version.split(".");
    expect(toml.api_version).toBe(`${year}-${month!.padStart(2, "0")}`);
    expect(toml.api_version).toBe("2026-07");
  });

  test("each extension may use the network, has its module, and a list name setting", () => {
    for (const extension of toml.extensions) {
      expect(extension.capabilities?.network_access, extension.handle).toBe(true);
      for (const { module } of extension.targeting) expect(existsSync(path.join(ROOT, module)), module).toBe(true);
      expect(extension.settings?.fields).toEqual([expect.objectContaining({ key: "list_context", type: "single_line_text_field" })]);
    }
  });

  test("the profile block links to the page extension's handle", () => {
    expect(PAGE_EXTENSION_HANDLE).toBe(toml.extensions[0]!.handle);
    expect(PAGE_EXTENSION_URL).toBe("extension://saved-items-page");
    expect(read("src/ProfileBlock.tsx")).toContain("href={PAGE_EXTENSION_URL}");
  });
});

describe("the bundle (as Shopify CLI builds it: esbuild, automatic JSX, process.env.* defined)", () => {
  async function bundle(module: string, define: Record<string, string> = {}) {
    const result = await build({
      entryPoints: [path.join(ROOT, module)],
      bundle: true,
      format: "esm",
      target: "es2020",
      jsx: "automatic",
      write: false,
      minify: false,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": JSON.stringify("production"), ...define },
    });
    return result.outputFiles[0]!.text;
  }

  test.each(toml.extensions.map((extension) => extension.targeting[0]!.module))(
    "%s builds, with the app URL from SAVED_ITEMS_APP_URL inlined",
    async (module) => {
      const code = await bundle(module, { "process.env.SAVED_ITEMS_APP_URL": JSON.stringify("https://saved-items.example") });
      expect(code).toContain('"https://saved-items.example"');
      expect(code).not.toContain("process.env.SAVED_ITEMS_APP_URL");
      expect(code).toMatch(/export\s*\{[^}]*as default/);
      // Preact, not React, renders the s-* elements.
      expect(code).not.toMatch(/from\s*["']react/);
    },
  );

  test("without the variable it still builds and reads it guarded (no ReferenceError at run time)", async () => {
    const code = await bundle("src/SavedItemsPage.tsx");
    expect(code).toMatch(/try\s*\{\s*return process\.env\.SAVED_ITEMS_APP_URL;?\s*\}\s*catch/);
  });
});

describe("locales/en.default.json", () => {
  const strings = JSON.parse(read("locales/en.default.json")) as Record<string, unknown>;
  const lookup = (key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], strings);

  test("has every key the UI translates", () => {
    const sources = readdirSync(path.join(ROOT, "src"))
      .filter((file) => file.endsWith(".tsx"))
      .map((file) => read(path.join("src", file)));
    const keys = new Set(sources.flatMap((source) => [...source.matchAll(/\bt\("([\w.]+)"/g)].map((match) => match[1]!)));
    for (const code of ["CUSTOMER_REQUIRED", "CHANNEL_NOT_ENTITLED", "APP_URL_NOT_CONFIGURED", "RATE_LIMITED", "ITEM_NOT_FOUND"]) {
      for (const retryable of [true, false]) keys.add(errorMessageKey(new SavedItemsError(code, "", 500, retryable)));
    }
    keys.add(errorMessageKey(null));
    expect(keys.size).toBeGreaterThan(10);
    for (const key of keys) expect(lookup(key), key).toBeDefined();
  });
});
