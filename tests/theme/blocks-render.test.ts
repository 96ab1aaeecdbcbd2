// The blocks' Liquid rendered by the sandbox's liquidjs renderer (no browser): every string comes from
// the locale files, the data attributes the script reads are there, merchant settings apply.
import { describe, expect, test } from "vitest";
import { findProduct } from "@saved-items/sandbox/storefront/catalog";
import { createThemeRenderer, defaultSettings, readBlock } from "@saved-items/sandbox/storefront/liquid";

const globalsFor = (customerId?: number, prefix = "") => ({
  shop: { name: "Demo", permanent_domain: "demo.myshopify.com" },
  customer: customerId ? { id: customerId } : undefined,
  routes: { root_url: prefix || "/", account_login_url: `${prefix}/account/login` },
  request: { path: "/products/linen-shirt", locale: { iso_code: "en" } },
});

const shirt = () => {
  const p = findProduct("linen-shirt")!;
  return {
    ...p,
    url: "/products/linen-shirt",
    featured_image: { src: p.image },
    selected_or_first_available_variant: p.variants[1],
  };
};

/** A cart of one line as Liquid's cart object holds it: two of the shirt's L. */
const cart = () => ({
  item_count: 2,
  items: [
    {
      key: "91013:sandbox",
      variant_id: 91013,
      quantity: 2,
      title: "Linen Shirt - L",
      url: "/products/linen-shirt?variant=91013",
      final_price: 5400,
      product: { handle: "linen-shirt" },
    },
  ],
});

const attribute = (html: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1];

describe("theme blocks rendered with liquidjs", () => {
  test.each(["en", "fr"])("no translation is missing in %s, logged in or out", async (locale) => {
    const theme = createThemeRenderer({ locale });
    for (const customer of [undefined, 1001]) {
      for (const name of ["save-button", "saved-items", "saved-items-embed", "save-for-later"]) {
        const { html } = await theme.renderBlock(name, { ...globalsFor(customer), product: shirt(), cart: cart() });
        expect(html).not.toContain("translation missing");
        expect(attribute(html, "data-customer")).toBe(customer ? "1001" : "");
        expect(attribute(html, "data-login-url")).toBe("/account/login");
        expect(attribute(html, "data-shop")).toBe("demo.myshopify.com");
        expect(attribute(html, "data-root")).toBe("/");
        expect(attribute(html, "data-api")).toBe("/apps/saved-items/api/");
        expect(attribute(html, "data-context")).toBe(name === "save-for-later" ? "saved-for-later" : "wishlist");
      }
    }
  });

  test("the save button carries the product, the selected variant and the variants' data", async () => {
    const { html } = await createThemeRenderer({ locale: "en" }).renderBlock("save-button", {
      ...globalsFor(),
      product: shirt(),
    });
    expect(attribute(html, "data-product-id")).toBe("8101");
    expect(attribute(html, "data-variant-id")).toBe("91012");
    expect(attribute(html, "data-entity")).toBe("product");
    expect(html).toMatch(/<button type="button" class="si-btn" aria-pressed="false">/);
    expect(html).toContain('role="status" aria-live="polite"');
    const variants = JSON.parse(
      /<script type="application\/json" data-si-variants>([\s\S]*?)<\/script>/.exec(html)![1]!,
    );
    expect(variants).toEqual([
      { id: 91011, title: "S", price: "$49.00" },
      { id: 91012, title: "M", price: "$49.00" },
      { id: 91013, title: "L", price: "$54.00" },
    ]);
  });

  test("merchant settings: labels, list name, icon, colours, proxy path", async () => {
    const { html } = await createThemeRenderer({ locale: "fr" }).renderBlock(
      "save-button",
      { ...globalsFor(), product: shirt() },
      {
        label_save: "Wish",
        label_saved: "Wished",
        context: "gifts",
        icon: "star",
        active_color: "#00aa00",
        proxy_path: "tools/saved",
      },
    );
    expect(attribute(html, "data-t-save")).toBe("Wish");
    expect(attribute(html, "data-t-saved")).toBe("Wished");
    expect(attribute(html, "data-t-added")).toBe("Ajouté à votre liste.");
    expect(attribute(html, "data-context")).toBe("gifts");
    expect(attribute(html, "data-api")).toBe("/tools/saved/api/");
    expect(html).toContain("--si-active: #00aa00;");
    expect(html).toContain('<path d="M12 2.8l2.8'); // the star
    expect(html).toContain('<span class="si-label">Wish</span>');
  });

  test("the API root follows the locale's storefront root and folds slashes the merchant typed around the proxy path", async () => {
    const theme = createThemeRenderer({ locale: "fr" });
    for (const proxy_path of ["tools/saved", "/tools/saved/"]) {
      const { html } = await theme.renderBlock("saved-items", globalsFor(1001, "/fr"), { proxy_path });
      expect(attribute(html, "data-root")).toBe("/fr/");
      expect(attribute(html, "data-api")).toBe("/fr/tools/saved/api/");
    }
  });

  test.each([
    ["save-button", "button"],
    ["saved-items", "list"],
    ["saved-items-embed", "cards"],
    ["save-for-later", "cart"],
  ])(
    "%s carries its styles and the loader of its kind's module (%s) inline, before its markup (schema assets would go in the head)",
    async (name, kind) => {
      const { html } = await createThemeRenderer({ locale: "en" }).renderBlock(name, {
        ...globalsFor(1001),
        product: shirt(),
        cart: cart(),
      });
      const style = html.indexOf("<style>");
      expect(style).toBeGreaterThanOrEqual(0);
      expect(style).toBeLessThan(html.indexOf('data-si="'));
      expect(html).toContain('[aria-pressed="true"] .si-icon');
      expect(html).not.toMatch(/<link\b/);
      // Its loader, run after the page's load event.
      expect(html).toContain(`"/storefront-assets/saved-items-${kind}.js"`);
      expect(attribute(html, "data-si")).toBe(kind);
    },
  );

  test("the cart block lists each cart line with its variant, quantity and key, and a template for one more", async () => {
    const { html } = await createThemeRenderer({ locale: "en" }).renderBlock("save-for-later", {
      ...globalsFor(1001),
      cart: cart(),
    });
    expect(attribute(html, "data-rows")).toBe("1");
    expect(attribute(html, "data-key")).toBe("91013:sandbox");
    expect(attribute(html, "data-variant-id")).toBe("91013");
    expect(attribute(html, "data-quantity")).toBe("2");
    expect(attribute(html, "data-handle")).toBe("linen-shirt");
    expect(attribute(html, "data-price")).toBe("$54.00");
    expect(html).toContain('aria-label="Save for later: Linen Shirt - L"');
    expect(html).toMatch(/<template class="si-line-template">\s*<li\s+class="si-item si-line"\s*>/);
    const { html: linesOff } = await createThemeRenderer({ locale: "en" }).renderBlock(
      "save-for-later",
      { ...globalsFor(1001), cart: cart() },
      { show_lines: "false" },
    );
    expect(linesOff).not.toContain("data-key=");
  });

  test("'Save to…' and the lists' controls render for a logged-in customer where their settings ask", async () => {
    const theme = createThemeRenderer({ locale: "fr" });
    for (const customer of [undefined, 1001]) {
      const scope = { ...globalsFor(customer), product: shirt() };
      const button = (await theme.renderBlock("save-button", scope, { save_to: "true" })).html;
      const list = (await theme.renderBlock("saved-items", scope, { manage_lists: "true" })).html;
      const hearts = (await theme.renderBlock("saved-items-embed", scope, { save_to: "true" })).html;
      expect(button.includes("Enregistrer dans…"), String(customer)).toBe(Boolean(customer));
      expect(hearts.includes("Enregistrer dans…"), String(customer)).toBe(Boolean(customer));
      expect(list.includes('class="si-lists"'), String(customer)).toBe(Boolean(customer));
      expect(attribute(list, "data-lists")).toBe("1");
      expect(attribute(list, "data-t-default")).toBe("Liste par défaut");
    }
    const plain = { ...globalsFor(1001), product: shirt() };
    expect((await theme.renderBlock("save-button", plain)).html).not.toContain("Enregistrer dans…");
    expect((await theme.renderBlock("saved-items-embed", plain)).html).not.toContain("Enregistrer dans…");
    expect((await theme.renderBlock("saved-items", plain)).html).not.toContain('class="si-lists"');
  });

  test("schemas: targets, no assets, a default for every setting the Liquid reads", () => {
    const blocks = Object.fromEntries(
      ["save-button", "saved-items", "saved-items-embed", "saved-by", "save-for-later"].map((name) => [
        name,
        readBlock(name),
      ]),
    );
    expect(blocks["save-for-later"]!.schema.target).toBe("section");
    expect(blocks["save-button"]!.schema.target).toBe("section");
    expect(blocks["saved-items"]!.schema.target).toBe("section");
    expect(blocks["saved-items-embed"]!.schema.target).toBe("body");
    for (const { schema, source } of Object.values(blocks)) {
      // Neither asset through the schema: the platform would put both in the page's head.
      expect(schema.javascript).toBeUndefined();
      expect(schema.stylesheet).toBeUndefined();
      const settings = defaultSettings(schema);
      for (const [, id] of source.matchAll(/block\.settings\.(\w+)/g)) expect(settings).toHaveProperty(id!);
    }
    expect(defaultSettings(blocks["saved-items-embed"]!.schema).card_selector).toContain("[data-saved-items-card]");
    expect(blocks["saved-by"]!.schema.target).toBe("section");
  });

  describe("Saved by shoppers", () => {
    /** The product as Liquid sees it with the app's saved_by metafield (absent when the app wrote none). */
    const withCount = (count?: number) => ({
      ...shirt(),
      metafields: count === undefined ? {} : { $app: { saved_by: { value: count, type: "number_integer" } } },
    });
    const render = (locale: string, count?: number, overrides: Record<string, string> = {}) =>
      createThemeRenderer({ locale }).renderBlock(
        "saved-by",
        { ...globalsFor(), product: withCount(count) },
        overrides,
      );

    test("shows the metafield's step as at least that many, in the shopper's language, with no script and no request", async () => {
      const { html } = await render("en", 10);
      expect(html).toContain(">Saved by 10+ shoppers</p>");
      expect(html).not.toMatch(/<script|fetch\(|\/apps\/saved-items/);
      expect((await render("fr", 5)).html).toContain(">Enregistré par 5+ clients</p>");
    });

    test("shows nothing without a count, or below the merchant's threshold", async () => {
      expect((await render("en")).html.trim()).toBe("");
      expect((await render("en", 9, { threshold: "10" })).html.trim()).toBe("");
      expect((await render("en", 10, { threshold: "10" })).html).toContain("Saved by 10+ shoppers");
    });

    test("the threshold cannot be set below the app's floor of 5", () => {
      const threshold = readBlock("saved-by").schema.settings!.find((setting) => setting.id === "threshold") as {
        min?: number;
        default?: number;
      };
      expect(threshold.min).toBe(5);
      expect(threshold.default).toBe(5);
    });
  });
});
