/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import type { Api } from "@shopify/ui-extensions/pos.customer-details.block.render";
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { SavedItemsError, toSavedItemsError } from "../../shared/errors";
import { APP_URL_NOT_CONFIGURED, configuredAppUrl } from "../../saved-items-account/src/lib/app-url";
import { DEFAULT_LIST_CONTEXT } from "../../saved-items-account/src/lib/constants";
import { catalogueIds, counterRows, type Catalogue, type CounterRow } from "./lib/counter-items";
import { createPosClient, NO_SESSION_TOKEN } from "./lib/pos-client";

/** POS's product search fetches at most 50 ids a call, so one page of the list is looked up whole. */
export const COUNTER_LIST_LIMIT = 50;

export default async () => {
  render(<CustomerBlock />, document.body);
};

type BlockState =
  | { status: "loading" }
  | { status: "ready"; rows: CounterRow[]; more: boolean }
  | { status: "error"; error: SavedItemsError };

/** The platform API of this target (the `shopify` global). */
function posApi(): Api {
  return (globalThis as unknown as { shopify: Api }).shopify;
}

/**
 * The chosen customer's saved products and variants: the list from the app, then image, title,
 * variant and stock from POS's own catalogue (no platform cost to the app; decision 0013), and
 * a button that adds a sellable variant to the cart.
 */
function CustomerBlock() {
  const api = posApi();
  const t = api.i18n.translate;
  const appUrl = useMemo(() => configuredAppUrl(), []);
  const customerGid = `gid://shopify/Customer/${api.customer.id}`;
  const [state, setState] = useState<BlockState>(() =>
    appUrl
      ? { status: "loading" }
      : { status: "error", error: new SavedItemsError(APP_URL_NOT_CONFIGURED, "Built without the app URL", 0, false) },
  );

  useEffect(() => {
    if (!appUrl) return;
    let current = true;
    const client = createPosClient({ appUrl, getSessionToken: () => api.session.getSessionToken() });
    client
      .list({ customerGid, context: DEFAULT_LIST_CONTEXT, limit: COUNTER_LIST_LIMIT })
      .then(async (page) => {
        const rows = counterRows(page.items, await lookUp(api, page.items));
        if (current) setState({ status: "ready", rows, more: page.pageInfo.hasNextPage });
      })
      .catch((error: unknown) => current && setState({ status: "error", error: toSavedItemsError(error) }));
    return () => {
      current = false;
    };
  }, [api, appUrl, customerGid]);

  async function addToCart(row: CounterRow) {
    try {
      await api.cart.addLineItem(row.addVariantId!, 1);
      api.toast.show(t("block.added", { title: row.title }));
    } catch {
      api.toast.show(t("block.addFailed", { title: row.title }));
    }
  }

  return (
    <s-pos-block heading={t("block.title")}>
      {state.status === "loading" && <s-text>{t("block.loading")}</s-text>}
      {state.status === "error" && <s-text tone="critical">{t(errorMessageKey(state.error))}</s-text>}
      {state.status === "ready" && state.rows.length === 0 && <s-text>{t("block.empty")}</s-text>}
      {state.status === "ready" && (
        <s-stack direction="block" gap="base">
          {state.rows.map((row) => (
            <s-stack key={row.key} direction="inline" gap="base" alignItems="center">
              {row.imageUrl && <s-image src={row.imageUrl} inlineSize="auto" />}
              <s-stack direction="block" gap="small">
                <s-text type="strong">{row.title}</s-text>
                {row.variantTitle && <s-text type="small">{row.variantTitle}</s-text>}
                <RowStatus row={row} t={t} />
              </s-stack>
              {row.addVariantId !== null && (
                <s-button variant="secondary" onClick={() => void addToCart(row)}>
                  {t("block.addToCart")}
                </s-button>
              )}
            </s-stack>
          ))}
          {state.more && <s-text type="small">{t("block.more", { count: COUNTER_LIST_LIMIT })}</s-text>}
        </s-stack>
      )}
    </s-pos-block>
  );
}

function RowStatus({ row, t }: { row: CounterRow; t: Api["i18n"]["translate"] }) {
  if (row.missing) return <s-text type="small">{t("block.notInPos")}</s-text>;
  return (
    <>
      {row.stock !== "unknown" && (
        <s-badge tone={row.stock === "in-stock" ? "success" : "critical"}>
          {t(row.stock === "in-stock" ? "block.inStock" : "block.outOfStock")}
        </s-badge>
      )}
      {row.variantCount !== null && (
        <s-text type="small">{t("block.chooseVariant", { count: row.variantCount })}</s-text>
      )}
    </>
  );
}

/** What POS's product search finds of the saved variants and products (at most 50 of each). */
async function lookUp(api: Api, items: Parameters<typeof catalogueIds>[0]): Promise<Catalogue> {
  const { variantIds, productIds } = catalogueIds(items);
  const [variants, products] = await Promise.all([
    variantIds.length ? api.productSearch.fetchProductVariantsWithIds(variantIds) : undefined,
    productIds.length ? api.productSearch.fetchProductsWithIds(productIds) : undefined,
  ]);
  return {
    variants: new Map((variants?.fetchedResources ?? []).map((variant) => [variant.id, variant])),
    products: new Map((products?.fetchedResources ?? []).map((product) => [product.id, product])),
  };
}

/** The translation key (locales/*.json) for a failure shown to staff. */
function errorMessageKey(error: SavedItemsError): string {
  switch (error.code) {
    case NO_SESSION_TOKEN:
    case "INVALID_TOKEN":
      return "error.noPermission";
    case "CHANNEL_NOT_ENTITLED":
    case "SHOP_NOT_INSTALLED":
      return "error.unavailable";
    case APP_URL_NOT_CONFIGURED:
      return "error.notConfigured";
    default:
      return error.retryable ? "error.temporary" : "error.generic";
  }
}
