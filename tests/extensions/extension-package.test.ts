// @vitest-environment happy-dom
// The customer-account extensions as a package: their configuration (checked as data: what the
// platform does with a handle, target or capability can only be seen on the platform), and their
// bundle, built as the platform's CLI builds it and run. What the UI shows, with every string it
// translates, is tests/extensions/account-ui.test.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { PAGE_EXTENSION_HANDLE, PAGE_EXTENSION_URL } from "../../extensions/saved-items-account/src/lib/constants";
import { cliBundle } from "../support/extensions/cli-bundle";
import { EXTENSION_DIR as ROOT, installFakePlatform } from "../support/extensions/account-platform";
import { EXCHANGE, FakeService, LIST, LISTS, grant, ok, page } from "../support/extensions/service";

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

const toml = parse(readFileSync(path.join(ROOT, "shopify.extension.toml"), "utf8")) as unknown as ExtensionToml;

describe("shopify.extension.toml", () => {
  test("declares the full page and the profile block as two UI extensions (a full page cannot share an extension)", () => {
    expect(
      toml.extensions.map((extension) => [extension.handle, extension.type, extension.targeting.map((t) => t.target)]),
    ).toEqual([
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
      expect(extension.settings?.fields).toEqual([
        expect.objectContaining({ key: "list_context", type: "single_line_text_field" }),
      ]);
    }
  });

  test("the profile block's link (extension://saved-items-page, rendered in account-ui.test.ts) names the page extension's handle", () => {
    expect(PAGE_EXTENSION_HANDLE).toBe(toml.extensions[0]!.handle);
    expect(PAGE_EXTENSION_URL).toBe(`extension://${toml.extensions[0]!.handle}`);
  });
});

/** Runs the bundle with `process` out of reach, then the target the bundle registered. */
async function runBundle(code: string, target: string): Promise<void> {
  const platform = installFakePlatform();
  new Function("process", code)(undefined);
  expect([...platform.targets.keys()]).toEqual([target]);
  await platform.targets.get(target)!();
}

describe("the bundle, built as the CLI builds it and run as the platform runs it", () => {
  let service: FakeService;
  beforeEach(() => {
    service = new FakeService()
      .on(EXCHANGE, () => grant(Date.now()))
      .on(LIST, ok(page(["1", "2"])))
      .on(LISTS, ok({ lists: [], pageInfo: { hasNextPage: false, endCursor: null } }));
    vi.stubGlobal("fetch", service.fetch);
  });
  afterEach(() => {
    // Each bundle carries its own Preact, which marks the body it rendered into: a fresh body per run.
    document.documentElement.replaceChild(document.createElement("body"), document.body);
    vi.unstubAllGlobals();
  });

  test.each(
    toml.extensions.map((extension) => [extension.targeting[0]!.target, extension.targeting[0]!.module] as const),
  )(
    "%s: calls the app at the URL SAVED_ITEMS_APP_URL had at build time, and renders what it answered",
    async (target, module) => {
      await runBundle(
        await cliBundle(ROOT, target, module, { SAVED_ITEMS_APP_URL: "https://saved-items.example" }),
        target,
      );
      await vi.waitFor(() => expect(service.to(LIST)).toHaveLength(1));
      // The exchange, the list and (on the page) the customer's lists: all at the app.
      expect(new Set(service.requests.map((request) => request.url.origin))).toEqual(
        new Set(["https://saved-items.example"]),
      );
      await vi.waitFor(() => expect(document.body.textContent).toMatch(/Product 1|2 saved items/));
    },
  );

  test("built without SAVED_ITEMS_APP_URL it still runs (no ReferenceError on `process`), says it is not set up and calls nothing", async () => {
    const { target, module } = toml.extensions[0]!.targeting[0]!;
    const bundle = await cliBundle(ROOT, target, module, {});
    // The bundle's own Preact and client are out of the test's reach: its clock is the test's, and
    // every effect, retry and timer it set runs out before the assertion.
    vi.useFakeTimers();
    try {
      await runBundle(bundle, target);
      await vi.runAllTimersAsync();
    } finally {
      vi.useRealTimers();
    }
    expect(document.body.textContent).toContain("Saved items isn't set up yet.");
    expect(service.requests).toEqual([]);
  });
});
