// The sandbox storefront's cart: the platform's Ajax cart API as themes call it (`/cart.js`,
// `/cart/add.js`, `/cart/change.js`, JSON or form-encoded bodies) and Liquid's `cart` object, one
// cart per browser (the `cart` cookie names it). The shapes follow the platform's: a line is keyed
// by `key` ("<variant id>:<hash>"), add.js answers the added lines (or the line, when one variant was
// posted without `items`), change.js the whole cart; refusals are {status, message, description}.
import { createHash, randomUUID } from "node:crypto";
import { PRODUCTS, type CatalogProduct, type CatalogVariant } from "./catalog";

export const CART_COOKIE = "cart";
/** Lines a sandbox cart holds at most: a runaway client cannot grow the front's memory. */
const MAX_LINES = 50;
/** Carts the front keeps at most; the oldest is forgotten first. */
const MAX_CARTS = 10_000;

interface StoredLine {
  variantId: number;
  quantity: number;
}

/** A refusal of the Ajax cart API, answered as the platform does: `{status, message, description}`. */
export class CartError extends Error {
  constructor(
    readonly status: 400 | 404 | 422,
    readonly description: string,
  ) {
    super(description);
  }
  get body() {
    return { status: this.status, message: "Cart Error", description: this.description };
  }
}

function findVariant(variantId: number): { product: CatalogProduct; variant: CatalogVariant } | undefined {
  for (const product of PRODUCTS) {
    const variant = product.variants.find((v) => v.id === variantId);
    if (variant) return { product, variant };
  }
  return undefined;
}

const lineKey = (variantId: number) =>
  `${variantId}:${createHash("md5").update(`sandbox-line-${variantId}`).digest("hex")}`;

/** A line as /cart.js and add.js answer it. */
function lineJson({ variantId, quantity }: StoredLine, prefix: string) {
  const { product, variant } = findVariant(variantId)!;
  const onlyDefault = product.variants.length === 1 && variant.title === "Default Title";
  return {
    id: variantId,
    key: lineKey(variantId),
    quantity,
    variant_id: variantId,
    product_id: product.id,
    title: onlyDefault ? product.title : `${product.title} - ${variant.title}`,
    product_title: product.title,
    variant_title: onlyDefault ? null : variant.title,
    price: variant.price,
    final_price: variant.price,
    line_price: variant.price * quantity,
    final_line_price: variant.price * quantity,
    url: `${prefix}/products/${product.handle}?variant=${variantId}`,
    image: product.image,
    handle: product.handle,
    product_has_only_default_variant: onlyDefault,
    requires_shipping: true,
  };
}

/** The integer a body field holds (JSON number or form string), or undefined. */
function integer(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) ? number : undefined;
}

export function createCartStore() {
  const carts = new Map<string, StoredLine[]>();

  function linesOf(token: string): StoredLine[] {
    let lines = carts.get(token);
    if (!lines) {
      if (carts.size >= MAX_CARTS) carts.delete(carts.keys().next().value!);
      carts.set(token, (lines = []));
    }
    return lines;
  }

  function cartJson(token: string, prefix: string) {
    const items = (carts.get(token) ?? []).map((line) => lineJson(line, prefix));
    const total = items.reduce((sum, item) => sum + item.final_line_price, 0);
    return {
      token,
      note: null,
      attributes: {},
      total_price: total,
      items_subtotal_price: total,
      total_discount: 0,
      item_count: items.reduce((sum, item) => sum + item.quantity, 0),
      items,
      requires_shipping: items.length > 0,
      currency: "USD",
    };
  }

  return {
    /** A new cart's token, for a browser without the cookie. */
    newToken: () => randomUUID().replace(/-/g, ""),

    cartJson,

    /** Liquid's `cart`: the JSON's fields, each line with its `product` as Liquid offers it. */
    liquidCart(token: string, prefix: string) {
      const cart = cartJson(token, prefix);
      const items = cart.items.map((item) => ({
        ...item,
        product: { handle: item.handle, title: item.product_title },
      }));
      return { ...cart, items };
    },

    /**
     * add.js: `{items: [{id, quantity}]}` or one `{id, quantity}`; a variant already in the cart
     * adds to its line. Nothing is added unless every item can be.
     */
    add(token: string, prefix: string, body: Record<string, unknown>) {
      const posted = Array.isArray(body.items)
        ? (body.items as Record<string, unknown>[])
        : body.items && typeof body.items === "object"
          ? Object.values(body.items as Record<string, Record<string, unknown>>) // items[0][id]=… from a form
          : [body];
      const wanted = posted.map((item) => {
        const variantId = integer(item?.id);
        const quantity = item?.quantity === undefined ? 1 : integer(item.quantity);
        const found = variantId === undefined ? undefined : findVariant(variantId);
        if (!found) throw new CartError(404, "Cannot find variant");
        if (quantity === undefined || quantity < 1) throw new CartError(422, "Quantity must be a positive integer");
        if (!found.variant.available) throw new CartError(422, `${found.product.title} is already sold out.`);
        return { variantId: variantId!, quantity };
      });
      if (!wanted.length) throw new CartError(422, "Cart Error: no items");
      const lines = linesOf(token);
      if (lines.length + wanted.length > MAX_LINES) throw new CartError(422, `A cart holds at most ${MAX_LINES} lines`);
      const added = wanted.map(({ variantId, quantity }) => {
        let line = lines.find((l) => l.variantId === variantId);
        if (line) line.quantity += quantity;
        else lines.push((line = { variantId, quantity }));
        return lineJson(line, prefix);
      });
      return Array.isArray(body.items) || body.items ? { items: added } : added[0];
    },

    /** change.js: the line named by `id` (its key, or a variant id) or `line` (1-based) gets `quantity`; 0 removes it. */
    change(token: string, prefix: string, body: Record<string, unknown>) {
      const lines = linesOf(token);
      const quantity = integer(body.quantity);
      const lineNumber = integer(body.line);
      const index =
        lineNumber !== undefined
          ? lineNumber - 1
          : lines.findIndex((l) => lineKey(l.variantId) === String(body.id) || l.variantId === integer(body.id));
      if (!lines[index] || quantity === undefined || quantity < 0)
        throw new CartError(400, "no valid id or line parameter");
      if (quantity === 0) lines.splice(index, 1);
      else lines[index]!.quantity = quantity;
      return cartJson(token, prefix);
    },
  };
}

export type CartStore = ReturnType<typeof createCartStore>;
