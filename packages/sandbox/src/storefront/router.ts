// The sandbox storefront: what the platform serves to shoppers, reduced to what the theme app
// extension needs. Product, collection and saved-items pages render the extension's blocks with
// liquidjs; /apps/saved-items/* is forwarded to the app's /proxy/* with the proxy parameters signed
// for the logged-in sandbox customer, as the platform's app proxy does. Mounted by the sandbox's
// front (front.ts) before its proxy to the app. Also under /fr/ (French locale files,
// Shopify.routes.root "/fr/").
import compression from "compression";
import express, { type Request as ExpressRequest, type Response as ExpressResponse, type Router } from "express";
import path from "node:path";
import { errorEnvelope } from "../../../../app/lib/envelope";
import { ServiceError } from "../../../../app/lib/errors";
import { signedProxyUrl } from "../proxy-signature";
import { HELD_BODY_BYTES, holdBody } from "../held-body";
import type { Seed } from "../seed";
import { CART_COOKIE, CartError, createCartStore } from "./cart";
import { COLLECTIONS, findCollection, findProduct, PRODUCTS, type CatalogProduct } from "./catalog";
import {
  ASSETS_URL_PREFIX,
  createThemeRenderer,
  EXTENSION_DIR,
  type RenderedBlock,
  type ThemeRenderer,
} from "./liquid";

export const DEFAULT_SHOP = "demo.myshopify.com";
export const PROXY_PREFIX = "/apps/saved-items";
export const SAVED_PAGE_PATH = "/pages/saved-items";
const CUSTOMER_COOKIE = "sandbox_customer";
const SHOP_COOKIE = "sandbox_shop";
/** "on": every page but the cart's has a cart drawer holding the cart block (?cart_drawer=on|off sets it). */
const DRAWER_COOKIE = "sandbox_cart_drawer";
const LOCALES = { en: "", fr: "/fr" } as const;
type Locale = keyof typeof LOCALES;

export interface StorefrontOptions {
  /** Sends a request to the app (one of its instances) and answers with its response. */
  forward: (request: Request) => Promise<Response>;
  seed: Seed;
  /** The app's API secret, which signs the forwarded proxy parameters. */
  apiSecret: string;
  /** The platform's metafields of a product (the emulator's), which Liquid reads as product.metafields. */
  productMetafields?: (shop: string, productGid: string) => Promise<StoredMetafield[]>;
}

/** A metafield as the platform stores it, namespace in its stored form (`app--<client id>` for `$app`). */
export interface StoredMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/**
 * product.metafields as Liquid sees it: by namespace, then key, each with its typed value. The
 * app's own namespace also answers to `$app`, as it does in the app's blocks on the platform.
 */
function liquidMetafields(metafields: readonly StoredMetafield[]) {
  const namespaces: Record<string, Record<string, { value: unknown; type: string }>> = {};
  for (const { namespace, key, type, value } of metafields) {
    const typed = type.startsWith("number_") ? Number(value) : value;
    const names = /^app--[^-]+$/.test(namespace) ? [namespace, "$app"] : [namespace];
    for (const name of names) (namespaces[name] ??= {})[key] = { value: typed, type };
  }
  return namespaces;
}

type SeedShop = Seed["shops"][number];

interface Shopper {
  shop: SeedShop;
  customerIds: string[];
  /** Numeric id of the logged-in customer, "" when logged out. */
  customerId: string;
}

function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index > 0) cookies[part.slice(0, index).trim()] = decodeURIComponent(part.slice(index + 1).trim());
  }
  return cookies;
}

/** Only same-site paths: an open redirect would be a bug even in a sandbox. */
function safeReturnUrl(value: unknown, fallback: string): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) ? value : fallback;
}

function customerNumber(gid: string): string {
  return gid.split("/").pop()!;
}

function liquidProduct(
  product: CatalogProduct,
  prefix: string,
  variantId?: string,
  metafields: readonly StoredMetafield[] = [],
) {
  const image = { src: product.image, alt: product.title, width: 480, height: 480 };
  const selected =
    product.variants.find((v) => String(v.id) === variantId) ??
    product.variants.find((v) => v.available) ??
    product.variants[0]!;
  return {
    id: product.id,
    handle: product.handle,
    title: product.title,
    description: product.description,
    url: `${prefix}/products/${product.handle}`,
    price: Math.min(...product.variants.map((v) => v.price)),
    featured_image: image,
    variants: product.variants,
    has_only_default_variant: product.variants.length === 1 && product.variants[0]!.title === "Default Title",
    selected_or_first_available_variant: selected,
    card_without_id: Boolean(product.cardWithoutId),
    metafields: liquidMetafields(metafields),
  };
}

export function createStorefrontRouter(options: StorefrontOptions): Router {
  const renderers: Record<Locale, ThemeRenderer> = {
    en: createThemeRenderer({ locale: "en" }),
    fr: createThemeRenderer({ locale: "fr" }),
  };
  const defaultShop = options.seed.shops.find((s) => s.domain === DEFAULT_SHOP) ?? options.seed.shops[0];
  const carts = createCartStore();

  function shopperOf(req: ExpressRequest): Shopper {
    const cookies = parseCookies(req.headers.cookie);
    const shop = options.seed.shops.find((s) => s.domain === cookies[SHOP_COOKIE]) ?? defaultShop;
    if (!shop) throw new Error("The sandbox seed has no shops");
    const customerIds = shop.customers.map((c) => customerNumber(c.id));
    const wanted = cookies[CUSTOMER_COOKIE] ?? "";
    return { shop, customerIds, customerId: customerIds.includes(wanted) ? wanted : "" };
  }

  const router = express.Router();
  // Compressed, as the platform serves a storefront's pages and its CDN the extension's assets: what
  // the app adds to a page is measured (npm run bench:storefront) in the bytes a shopper receives.
  router.use(compression());
  router.use(ASSETS_URL_PREFIX, express.static(path.join(EXTENSION_DIR, "assets"), { maxAge: 0 }));
  for (const [locale, prefix] of Object.entries(LOCALES) as [Locale, string][]) {
    router.use(prefix || "/", localizedRouter(locale, prefix));
  }
  return router;

  function localizedRouter(locale: Locale, prefix: string): Router {
    const theme = renderers[locale];
    const routes = {
      root_url: prefix || "/",
      account_url: `${prefix}/account`,
      account_login_url: `${prefix}/account/login`,
      account_logout_url: `${prefix}/account/logout`,
      all_products_collection_url: `${prefix}/collections/all`,
      collections_url: `${prefix}/collections`,
      cart_url: `${prefix}/cart`,
      cart_add_url: `${prefix}/cart/add`,
    };
    const home = routes.all_products_collection_url;
    const local = express.Router();

    // ?shop=<seed shop> switches the storefront's shop (and logs out: customers belong to a shop).
    // Only on storefront pages: the app's own routes (/auth?shop=...) take a shop parameter too.
    local.use(["/products", "/collections", "/pages", "/account"], (req, res, next) => {
      const wanted = typeof req.query.shop === "string" ? req.query.shop : undefined;
      if (!wanted) return next();
      if (!options.seed.shops.some((s) => s.domain === wanted)) return res.status(400).send(`No seed shop ${wanted}`);
      const url = new URL(req.originalUrl, "http://sandbox");
      url.searchParams.delete("shop");
      res.cookie(SHOP_COOKIE, wanted, { path: "/", sameSite: "lax" });
      res.clearCookie(CUSTOMER_COOKIE, { path: "/" });
      res.redirect(url.pathname + url.search);
    });

    // ?cart_drawer=on|off: whether pages have the cart drawer, as a merchant's theme would or not.
    local.use(["/products", "/collections", "/pages", "/account", "/cart"], (req, res, next) => {
      const drawer = req.query.cart_drawer;
      if (drawer !== "on" && drawer !== "off") return next();
      const url = new URL(req.originalUrl, "http://sandbox");
      url.searchParams.delete("cart_drawer");
      res.cookie(DRAWER_COOKIE, drawer, { path: "/", sameSite: "lax" });
      res.redirect(url.pathname + url.search);
    });

    /** The browser's cart token; a new one (and its cookie) only when the cart is written. */
    const cartToken = (req: ExpressRequest, res?: ExpressResponse): string => {
      const token = parseCookies(req.headers.cookie)[CART_COOKIE];
      if (token || !res) return token ?? "";
      const created = carts.newToken();
      res.cookie(CART_COOKIE, created, { path: "/", sameSite: "lax" });
      return created;
    };
    const cartBody = [express.json({ limit: "64kb" }), express.urlencoded({ extended: true, limit: "64kb" })];
    const cartWrite =
      (write: (token: string, body: Record<string, unknown>) => unknown) =>
      (req: ExpressRequest, res: ExpressResponse) => {
        try {
          res.json(write(cartToken(req, res), (req.body ?? {}) as Record<string, unknown>));
        } catch (error) {
          if (!(error instanceof CartError)) throw error;
          res.status(error.status).json(error.body);
        }
      };
    local.get("/cart.js", (req, res) => void res.json(carts.cartJson(cartToken(req), prefix)));
    local.post(
      "/cart/add.js",
      cartBody,
      cartWrite((token, body) => carts.add(token, prefix, body)),
    );
    local.post(
      "/cart/change.js",
      cartBody,
      cartWrite((token, body) => carts.change(token, prefix, body)),
    );
    // The product form's plain POST: added, then the cart page, as the platform answers it.
    local.post("/cart/add", cartBody, (req: ExpressRequest, res: ExpressResponse) => {
      try {
        carts.add(cartToken(req, res), prefix, (req.body ?? {}) as Record<string, unknown>);
      } catch (error) {
        if (!(error instanceof CartError)) throw error;
      }
      res.redirect(routes.cart_url);
    });
    local.get("/cart", async (req, res) => {
      await renderPage(req, res, "cart", { page_title: "Cart" }, { save_for_later: "save-for-later" });
    });

    local.all(new RegExp(`^${PROXY_PREFIX}(/.*)?$`), (req, res, next) => {
      // A Liquid answer renders inside the theme's layout, as the platform renders it.
      // all_products, as the platform's Liquid has it: the shared page finds a product's image by handle.
      const allProducts = Object.fromEntries(
        PRODUCTS.map((product) => [product.handle, liquidProduct(product, prefix)]),
      );
      const renderLiquid = (source: string) =>
        renderPage(req, res, { source }, { page_title: "", all_products: allProducts });
      forwardToAppProxy(req, res, renderLiquid).catch(next);
    });

    local.get("/products/:handle.js", (req, res) => {
      const product = findProduct(req.params.handle!);
      if (!product) return res.status(404).json({ status: 404, message: "Not Found" });
      const { id, handle, title, price, image, variants } = product;
      res.json({ id, handle, title, price, featured_image: image, url: `${prefix}/products/${handle}`, variants });
    });

    local.get("/products/:handle", async (req, res) => {
      const product = findProduct(req.params.handle!);
      if (!product) return notFound(req, res);
      const variant = typeof req.query.variant === "string" ? req.query.variant : undefined;
      const metafields =
        (await options.productMetafields?.(shopperOf(req).shop.domain, `gid://shopify/Product/${product.id}`)) ?? [];
      await renderPage(
        req,
        res,
        "product",
        { page_title: product.title, product: liquidProduct(product, prefix, variant, metafields) },
        {
          save_button: "save-button",
          saved_by: "saved-by",
        },
      );
    });

    local.get("/collections/:handle", async (req, res) => {
      const collection = findCollection(req.params.handle!);
      if (!collection) return notFound(req, res);
      const products = collection.productHandles.map((handle) => liquidProduct(findProduct(handle)!, prefix));
      await renderPage(req, res, "collection", {
        page_title: collection.title,
        collection: { ...collection, products },
      });
    });

    local.get(SAVED_PAGE_PATH, async (req, res) => {
      await renderPage(req, res, "saved-page", { page_title: "Saved items" }, { saved_items: "saved-items" });
    });

    local.get("/account", (_req, res) => res.redirect(`${prefix}${SAVED_PAGE_PATH}`));

    local.get("/account/login", async (req, res) => {
      const shopper = shopperOf(req);
      const returnUrl = safeReturnUrl(req.query.return_url, home);
      const customer = req.query.customer;
      if (typeof customer === "string") {
        if (!shopper.customerIds.includes(customer)) {
          return res.status(400).send(`Customer ${customer} is not a seed customer of ${shopper.shop.domain}`);
        }
        res.cookie(CUSTOMER_COOKIE, customer, { path: "/", sameSite: "lax", httpOnly: true });
        return res.redirect(returnUrl);
      }
      await renderPage(req, res, "login", {
        page_title: "Log in",
        return_url: returnUrl,
        shop_customers: shopper.customerIds,
        seed_shops: options.seed.shops,
      });
    });

    local.get("/account/logout", (req, res) => {
      res.clearCookie(CUSTOMER_COOKIE, { path: "/" });
      res.redirect(safeReturnUrl(req.query.return_url, home));
    });

    return local;

    async function renderPage(
      req: ExpressRequest,
      res: ExpressResponse,
      template: string | { source: string },
      scope: Record<string, unknown>,
      blocks: Record<string, string> = {},
    ): Promise<void> {
      const shopper = shopperOf(req);
      const url = new URL(req.originalUrl, "http://sandbox");
      const cart = carts.liquidCart(cartToken(req), prefix);
      // ?s.<setting id>=<value> overrides a block setting, as a merchant would in the theme editor.
      const overrides: Record<string, string> = {};
      for (const [key, value] of url.searchParams) if (key.startsWith("s.")) overrides[key.slice(2)] = value;
      const globals = {
        shop: { name: "Saved Items Demo", permanent_domain: shopper.shop.domain, currency: "USD" },
        customer: shopper.customerId ? { id: Number(shopper.customerId) } : undefined,
        routes,
        cart,
        request: {
          path: url.pathname,
          host: req.headers.host,
          page_type: typeof template === "string" ? template : "app-proxy",
          locale: { iso_code: locale },
        },
      };
      // ?app=off renders the page as the theme alone, without the app's blocks, embed and assets:
      // the same page with and without the app, for the storefront benchmark.
      const withApp = url.searchParams.get("app") !== "off";
      const rendered: RenderedBlock[] = [];
      const appBlocks: Record<string, string> = {};
      for (const [slot, name] of withApp ? Object.entries(blocks) : []) {
        const block = await theme.renderBlock(name, { ...globals, ...scope }, overrides);
        rendered.push(block);
        appBlocks[slot] = block.html;
      }
      // The app embed is enabled on every page, as a merchant would in the theme editor.
      const embed = withApp ? await theme.renderBlock("saved-items-embed", globals, overrides) : undefined;
      if (embed) rendered.push(embed);
      const withDrawer = withApp && template !== "cart" && parseCookies(req.headers.cookie)[DRAWER_COOKIE] === "on";
      const drawer = withDrawer ? await theme.renderBlock("save-for-later", globals, overrides) : undefined;
      if (drawer) rendered.push(drawer);
      // The platform includes each block's schema assets once per page.
      const assets = (key: "javascript" | "stylesheet") => [
        ...new Set(
          rendered
            .map((b) => b.schema[key])
            .filter(Boolean)
            .map((file) => `${ASSETS_URL_PREFIX}${file}`),
        ),
      ];
      const shopifyJson = JSON.stringify({ shop: shopper.shop.domain, locale, routes: { root: `${prefix}/` } }).replace(
        /</g,
        "\\u003c",
      );
      const content =
        typeof template === "string"
          ? await theme.renderTemplate(template, { ...globals, ...scope, app_blocks: appBlocks })
          : await theme.renderSource(template.source, { ...globals, ...scope });
      const html = await theme.renderTemplate("layout", {
        ...globals,
        page_title: scope.page_title,
        content_for_layout: content,
        app_embeds: embed?.html ?? "",
        app_drawer: drawer?.html ?? "",
        app_scripts: assets("javascript"),
        app_stylesheets: assets("stylesheet"),
        shopify_json: shopifyJson,
        saved_page_url: `${prefix}${SAVED_PAGE_PATH}`,
      });
      res.type("html").set("Cache-Control", "no-store").send(html);
    }

    async function notFound(req: ExpressRequest, res: ExpressResponse) {
      res.status(404);
      await renderPage(req, res, "not-found", { page_title: "Not found" });
    }
  }

  /**
   * The app proxy: /apps/saved-items/<rest> → the app's /proxy/<rest> with the original query plus
   * shop, logged_in_customer_id (empty when logged out), path_prefix, timestamp and signature.
   * Method, body and content type pass through; cookies do not, and Set-Cookie is dropped.
   */
  async function forwardToAppProxy(
    req: ExpressRequest,
    res: ExpressResponse,
    renderLiquid: (source: string) => Promise<void>,
  ): Promise<void> {
    const shopper = shopperOf(req);
    const original = new URL(req.originalUrl, "http://sandbox");
    const rest = original.pathname.slice(original.pathname.indexOf(PROXY_PREFIX) + PROXY_PREFIX.length) || "/";
    const query: Record<string, string[]> = {};
    for (const [key, value] of original.searchParams) (query[key] ??= []).push(value);
    const host = req.headers.host ?? "127.0.0.1";
    const target = signedProxyUrl(`http://${host}`, `/proxy${rest}`, options.apiSecret, {
      shop: shopper.shop.domain,
      customerId: shopper.customerId,
      pathPrefix: PROXY_PREFIX,
      query,
    });
    const headers = new Headers({ "X-Forwarded-Host": host, "X-Forwarded-For": req.ip ?? "127.0.0.1" });
    for (const name of ["content-type", "accept", "accept-language", "user-agent"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers.set(name, value);
    }
    let body: Uint8Array<ArrayBuffer> | undefined;
    if (!["GET", "HEAD"].includes(req.method)) {
      const held = await holdBody(req, HELD_BODY_BYTES);
      // Gone mid-body: nobody to answer.
      if (!held) return;
      if (!held.complete) {
        // The rest is read and dropped, so the shopper's connection stays usable.
        req.resume();
        res
          .status(413)
          .type("application/json")
          .send(errorEnvelope(new ServiceError("VALIDATION_ERROR", `Body is larger than ${HELD_BODY_BYTES} bytes`)));
        return;
      }
      body = new Uint8Array(held.body);
    }
    const response = await options.forward(new Request(target, { method: req.method, headers, body }));
    res.status(response.status);
    if (response.headers.get("content-type")?.startsWith("application/liquid")) {
      await renderLiquid(await response.text());
      return;
    }
    response.headers.forEach((value, name) => {
      if (!["set-cookie", "content-length", "content-encoding", "transfer-encoding"].includes(name))
        res.setHeader(name, value);
    });
    res.send(Buffer.from(await response.arrayBuffer()));
  }
}

export { COLLECTIONS, PRODUCTS };
