// Renders the theme app extension's Liquid with a real Liquid engine (liquidjs), providing what the
// platform provides to app blocks: the `t` filter over the extension's locale files, `asset_url`,
// `money`, `image_url`, block.settings from the schema's defaults, and the global objects.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Liquid } from "liquidjs";
import { repoRoot } from "../config";

export const EXTENSION_DIR = path.join(repoRoot, "extensions/saved-items-theme");
export const ASSETS_URL_PREFIX = "/storefront-assets/";
const THEME_DIR = path.join(import.meta.dirname, "theme");

const SCHEMA_TAG = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/;

export interface BlockSetting {
  id?: string;
  type: string;
  default?: unknown;
}

export interface BlockSchema {
  name: string;
  target: "section" | "body" | "head";
  javascript?: string;
  stylesheet?: string;
  settings?: BlockSetting[];
}

export interface RenderedBlock {
  html: string;
  schema: BlockSchema;
}

type Translations = Record<string, unknown>;

function readJson(file: string): Translations {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Translations) : {};
}

function lookup(tree: Translations, key: string, count?: number): string | undefined {
  let node: unknown = tree;
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Translations)[part];
  }
  // A pluralized entry ({ one, other }) is chosen by count, as the platform's `t` does.
  if (count !== undefined && node && typeof node === "object") {
    node = (node as Translations)[count === 1 ? "one" : "other"];
  }
  return typeof node === "string" ? node : undefined;
}

/** Reads a block file: its Liquid without the schema, and the parsed schema. */
export function readBlock(name: string): { source: string; schema: BlockSchema } {
  const text = readFileSync(path.join(EXTENSION_DIR, "blocks", `${name}.liquid`), "utf8");
  const match = SCHEMA_TAG.exec(text);
  if (!match) throw new Error(`blocks/${name}.liquid has no {% schema %}`);
  return { source: text.replace(SCHEMA_TAG, ""), schema: JSON.parse(match[1]!) as BlockSchema };
}

export function defaultSettings(schema: BlockSchema): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const setting of schema.settings ?? []) {
    if (setting.id) settings[setting.id] = setting.default ?? (setting.type === "checkbox" ? false : "");
  }
  return settings;
}

export function createThemeRenderer(options: { locale: string }) {
  const fallback = readJson(path.join(EXTENSION_DIR, "locales/en.default.json"));
  const translations =
    options.locale === "en" ? fallback : readJson(path.join(EXTENSION_DIR, `locales/${options.locale}.json`));
  const engine = new Liquid({
    root: [THEME_DIR],
    partials: [path.join(EXTENSION_DIR, "snippets"), THEME_DIR],
    extname: ".liquid",
    cache: false, // edits to the extension show on the next page load
    strictFilters: true, // an unknown filter fails loudly instead of printing nothing
  });
  // Keyword arguments (`t: count: n`) arrive as [name, value] pairs and fill the {{ name }} placeholders.
  engine.registerFilter("t", (key: string, ...args: unknown[]) => {
    const values = new Map(args.filter((arg): arg is [string, unknown] => Array.isArray(arg)));
    const count = values.has("count") ? Number(values.get("count")) : undefined;
    const text = lookup(translations, key, count) ?? lookup(fallback, key, count);
    if (text === undefined) return `translation missing: ${options.locale}.${key}`;
    return text.replace(/{{\s*(\w+)\s*}}/g, (placeholder, name: string) =>
      values.has(name) ? String(values.get(name)) : placeholder,
    );
  });
  engine.registerFilter("asset_url", (file: string) => `${ASSETS_URL_PREFIX}${encodeURIComponent(file)}`);
  engine.registerFilter("money", (cents: unknown) => {
    const amount = (Number(cents) || 0) / 100;
    return options.locale === "fr" ? `${amount.toFixed(2).replace(".", ",")} $` : `$${amount.toFixed(2)}`;
  });
  engine.registerFilter("image_url", (image: unknown) =>
    image && typeof image === "object" && "src" in image
      ? String((image as { src: unknown }).src)
      : String(image ?? ""),
  );

  return {
    /** Renders one app block with its settings (schema defaults, then overrides). */
    async renderBlock(
      name: string,
      globals: Record<string, unknown>,
      overrides: Record<string, string> = {},
    ): Promise<RenderedBlock> {
      const { source, schema } = readBlock(name);
      const settings = defaultSettings(schema);
      const checkboxes = new Set(schema.settings?.filter((s) => s.type === "checkbox").map((s) => s.id));
      // A checkbox's override is "true" or "false": any string, "" too, would be truthy in Liquid.
      for (const [key, value] of Object.entries(overrides))
        if (key in settings) settings[key] = checkboxes.has(key) ? value === "true" : value;
      const block = {
        id: `sandbox-${name}`,
        type: `shopify://apps/saved-items/blocks/${name}`,
        settings,
        shopify_attributes: "",
      };
      const html = await engine.parseAndRender(source, { ...globals, block }, { globals });
      return { html, schema };
    },
    /** Renders Liquid an app proxy answered with (Content-Type application/liquid), as page content. */
    renderSource(source: string, scope: Record<string, unknown>): Promise<string> {
      return engine.parseAndRender(source, scope, { globals: scope });
    },
    /** Renders one of the sandbox theme's own templates (packages/sandbox/src/storefront/theme). */
    renderTemplate(name: string, scope: Record<string, unknown>): Promise<string> {
      return engine.renderFile(name, scope, { globals: scope });
    },
  };
}

export type ThemeRenderer = ReturnType<typeof createThemeRenderer>;
