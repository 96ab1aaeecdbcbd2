// The app and extension TOMLs as the platform's CLI would take them, checked offline. The schemas and
// where each part comes from are in tools/deploy/cli-config-schema.ts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, test, vi } from "vitest";
import { ACCESS_SCOPES } from "~/platform/access-scopes";
import {
  FlowTriggerExtensionSchema,
  FlowTriggerLifecycleCallbackSchema,
  AppConfigSchema,
  ThemeExtensionSchema,
  UnifiedUiExtensionsSchema,
  describeIssues,
  normaliseScopes,
  themeExtensionProblems,
} from "../../tools/deploy/cli-config-schema";
import { repoRoot } from "@saved-items/sandbox/config";

const readToml = (file: string) => parse(readFileSync(path.join(repoRoot, file), "utf8")) as Record<string, unknown>;
const appToml = readToml("shopify.app.toml");
const app = AppConfigSchema.parse(appToml);

const extensionTomls = readdirSync(path.join(repoRoot, "extensions"))
  .map((dir) => path.join("extensions", dir, "shopify.extension.toml"))
  .filter((file) => statSync(path.join(repoRoot, file), { throwIfNoEntry: false })?.isFile());

function issues(
  schema:
    | typeof AppConfigSchema
    | typeof ThemeExtensionSchema
    | typeof UnifiedUiExtensionsSchema
    | typeof FlowTriggerExtensionSchema
    | typeof FlowTriggerLifecycleCallbackSchema,
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? [] : describeIssues(result.error);
}

/** shopify.app.toml with one dotted key replaced (undefined deletes it). */
function appWith(dottedKey: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(appToml);
  const keys = dottedKey.split(".");
  let table = copy;
  for (const key of keys.slice(0, -1)) table = table[key] as Record<string, unknown>;
  if (value === undefined) delete table[keys.at(-1)!];
  else table[keys.at(-1)!] = value;
  return copy;
}

describe("shopify.app.toml", () => {
  test("has only keys the CLI accepts, with accepted values", () => {
    expect(issues(AppConfigSchema, appToml)).toEqual([]);
  });

  test("the schema is strict where the CLI or the platform would not take a key", () => {
    const metaobject = "metaobjects.app.save_item";
    expect(issues(AppConfigSchema, appWith(`${metaobject}.access.customer_account`, "none"))).toEqual([
      `${metaobject}.access: Unrecognized key: "customer_account"`,
    ]);
    expect(issues(AppConfigSchema, appWith("app_proxy.path", "/x"))).toEqual(['app_proxy: Unrecognized key: "path"']);
    expect(issues(AppConfigSchema, appWith("scopes", "read_products"))).toEqual(['(root): Unrecognized key: "scopes"']);
    expect(issues(AppConfigSchema, appWith(`${metaobject}.fields.status.capabilities.searchable`, true))).toEqual([
      `${metaobject}.fields.status.capabilities: Unrecognized key: "searchable"`,
    ]);
    expect(issues(AppConfigSchema, appWith(`${metaobject}.fields.status.type`, "text"))).toEqual([
      `${metaobject}.fields.status.type: unknown field type "text"`,
    ]);
    expect(issues(AppConfigSchema, appWith(`${metaobject}.display_name_field`, "title"))).toEqual([
      `${metaobject}.display_name_field: display_name_field must name one of the definition's fields`,
    ]);
    expect(issues(AppConfigSchema, appWith("app_proxy.url", "http://insecure.example/proxy"))).toEqual([
      "app_proxy.url: URL must be HTTPS URL or start with /",
    ]);
    expect(issues(AppConfigSchema, appWith("build.include_config_on_deploy", true))).toEqual([
      'build: Unrecognized key: "include_config_on_deploy"',
    ]);
    expect(issues(AppConfigSchema, appWith("auth", undefined))).toHaveLength(1);
    expect(issues(AppConfigSchema, appWith("webhooks.api_version", undefined))).toHaveLength(1);
  });

  test("the app proxy forwards to the app's /proxy routes, and the scopes include write_app_proxy", () => {
    const proxy = app.app_proxy!;
    // The CLI prepends application_url to a relative proxy URL (specifications/validation/url_prepender.ts).
    const resolved = new URL(
      proxy.url.startsWith("/") ? app.application_url.replace(/\/+$/, "") + proxy.url : proxy.url,
    );
    expect(resolved.pathname).toBe("/proxy");
    expect(normaliseScopes(app.access_scopes!.scopes!).split(",")).toContain("write_app_proxy");
    // The platform's documented rules for the storefront side of the proxy (shopify.dev, "app proxies").
    expect(["apps", "a", "community", "tools"]).toContain(proxy.prefix);
    expect(proxy.subpath).toMatch(/^[A-Za-z0-9_-]{1,30}$/);
    expect(["admin", "services", "password", "login"]).not.toContain(proxy.subpath);
  });

  test("the metaobject fields the app filters on are declared filterable", () => {
    const fields = (definition: string) => app.metaobjects!.app![definition]!.fields;
    const filterable = (definition: string) =>
      Object.entries(fields(definition))
        .filter(([, field]) => field.capabilities?.admin_filterable)
        .map(([key]) => key)
        .sort();
    expect(filterable("save_list")).toEqual(["customer_id", "share_token_hash"]);
    expect(filterable("save_item")).toEqual(["customer_id", "entity_gid", "list_key", "status"]);
    expect(filterable("save_list_directory")).toEqual(["customer_id"]);
  });
});

describe("the app's access scopes", () => {
  test("equal the scopes of shopify.app.toml", () => {
    expect(normaliseScopes(ACCESS_SCOPES)).toBe(normaliseScopes(app.access_scopes!.scopes!));
  });

  test("are what the platform library checks sessions against, whatever SCOPES says (the CLI sets it in development)", async () => {
    vi.resetModules();
    vi.stubEnv("SCOPES", "read_products");
    try {
      const { platformLibraryConfig } = await import("~/platform/shopify-api.server");
      expect(platformLibraryConfig.scopes).toEqual(ACCESS_SCOPES.split(","));
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe.each(extensionTomls)("%s", (file) => {
  const toml = readToml(file);

  test("has only keys the CLI accepts for its extension type", () => {
    if (Array.isArray(toml.extensions) && toml.extensions[0]?.type === "flow_trigger") {
      expect(issues(FlowTriggerExtensionSchema, toml)).toEqual([]);
    } else if (Array.isArray(toml.extensions) && toml.extensions[0]?.type === "flow_trigger_lifecycle_callback") {
      expect(issues(FlowTriggerLifecycleCallbackSchema, toml)).toEqual([]);
    } else if (Array.isArray(toml.extensions)) {
      const types = toml.extensions.map((entry: { type?: unknown }) => entry.type);
      // Only UI extensions have a schema here; another type needs its own, from its CLI specification.
      expect(new Set(types)).toEqual(new Set(["ui_extension"]));
      expect(issues(UnifiedUiExtensionsSchema, toml)).toEqual([]);
    } else {
      expect(toml.type).toBe("theme");
      expect(issues(ThemeExtensionSchema, toml)).toEqual([]);
    }
  });

  test.runIf(toml.type === "theme")("ships only files the CLI deploys for a theme app extension", () => {
    const directory = path.dirname(path.join(repoRoot, file));
    const files = readdirSync(directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const absolute = path.join(entry.parentPath, entry.name);
        return { path: path.relative(directory, absolute).split(path.sep).join("/"), bytes: statSync(absolute).size };
      })
      // The CLI skips the TOML itself and a few editor and VCS files (utilities/extensions/theme.ts).
      .filter((entry) => !/(^|\/)(\.gitkeep|\.DS_Store|Thumbs\.db|desktop\.ini|\.shopifyignore)$/.test(entry.path))
      .filter((entry) => !(entry.path.endsWith(".toml") && !entry.path.includes("/")));
    expect(files.length).toBeGreaterThan(0);
    expect(themeExtensionProblems(files)).toEqual([]);
  });
});

test("the extension TOMLs are found", () => {
  expect(extensionTomls.map((file) => path.basename(path.dirname(file))).sort()).toEqual([
    "flow-item-saved",
    "flow-saved-item-back-in-stock",
    "flow-saved-item-low-in-stock",
    "flow-saved-item-price-dropped",
    "flow-trigger-lifecycle",
    "saved-items-account",
    "saved-items-pos",
    "saved-items-theme",
  ]);
});
