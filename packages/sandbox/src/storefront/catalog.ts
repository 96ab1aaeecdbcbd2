// The sandbox storefront's demo catalog: a few products with variants and inline SVG images, the same
// in every seed shop. Ids are numeric like the platform's; GIDs are derived from them.

export interface CatalogVariant {
  id: number;
  title: string;
  /** In cents, as Liquid's money filters expect. */
  price: number;
  available: boolean;
}

export interface CatalogProduct {
  id: number;
  handle: string;
  title: string;
  description: string;
  price: number;
  image: string;
  variants: CatalogVariant[];
  /**
   * The card for this product carries no data-product-id, only a link: it exercises the card
   * convention's fallback (the heart looks the id up from /products/<handle>.js on click).
   */
  cardWithoutId?: boolean;
}

export interface CatalogCollection {
  handle: string;
  title: string;
  productHandles: string[];
}

function svgImage(background: string, shape: string): string {
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 120'>` +
    `<rect width='120' height='120' fill='${background}'/>${shape}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const single = (id: number, price: number): CatalogVariant[] => [
  { id, title: "Default Title", price, available: true },
];

export const PRODUCTS: CatalogProduct[] = [
  {
    id: 8101,
    handle: "linen-shirt",
    title: "Linen Shirt",
    description: "A loose shirt in washed linen.",
    price: 4900,
    image: svgImage("#dbe7f0", "<path d='M40 30l20-8 20 8 14 18-12 8-6-6v50H44V50l-6 6-12-8z' fill='#5b7c99'/>"),
    variants: [
      { id: 91011, title: "S", price: 4900, available: true },
      { id: 91012, title: "M", price: 4900, available: true },
      { id: 91013, title: "L", price: 5400, available: true },
    ],
  },
  {
    id: 8102,
    handle: "canvas-tote",
    title: "Canvas Tote",
    description: "A heavy canvas bag for the market.",
    price: 2500,
    image: svgImage(
      "#f1e9da",
      "<path d='M30 45h60l-6 55H36z' fill='#b08d57'/><path d='M45 45c0-20 30-20 30 0' stroke='#b08d57' stroke-width='5' fill='none'/>",
    ),
    variants: single(91021, 2500),
  },
  {
    id: 8103,
    handle: "wool-beanie",
    title: "Wool Beanie",
    description: "A ribbed beanie in merino wool.",
    price: 1900,
    image: svgImage(
      "#e8e2f0",
      "<path d='M28 80c0-40 64-40 64 0z' fill='#6d5a8c'/><rect x='24' y='78' width='72' height='14' rx='4' fill='#4d3d66'/>",
    ),
    variants: [
      { id: 91031, title: "Charcoal", price: 1900, available: true },
      { id: 91032, title: "Mustard", price: 1900, available: true },
    ],
  },
  {
    id: 8104,
    handle: "ceramic-mug",
    title: "Ceramic Mug",
    description: "A stoneware mug, glazed by hand.",
    price: 1600,
    image: svgImage(
      "#e3efe6",
      "<rect x='34' y='38' width='44' height='50' rx='6' fill='#4f8a63'/><path d='M78 50h8a10 10 0 010 20h-8' stroke='#4f8a63' stroke-width='6' fill='none'/>",
    ),
    variants: single(91041, 1600),
    cardWithoutId: true,
  },
  {
    id: 8105,
    handle: "leather-wallet",
    title: "Leather Wallet",
    description: "A slim wallet in vegetable-tanned leather.",
    price: 5900,
    image: svgImage(
      "#f3e3d8",
      "<rect x='26' y='40' width='68' height='44' rx='6' fill='#8a4b2a'/><rect x='60' y='54' width='34' height='16' rx='3' fill='#6b3820'/>",
    ),
    variants: single(91051, 5900),
  },
];

export const COLLECTIONS: CatalogCollection[] = [
  { handle: "all", title: "All products", productHandles: PRODUCTS.map((p) => p.handle) },
  { handle: "accessories", title: "Accessories", productHandles: ["canvas-tote", "wool-beanie", "leather-wallet"] },
];

export function findProduct(handle: string): CatalogProduct | undefined {
  return PRODUCTS.find((product) => product.handle === handle);
}

export function findCollection(handle: string): CatalogCollection | undefined {
  return COLLECTIONS.find((collection) => collection.handle === handle);
}
