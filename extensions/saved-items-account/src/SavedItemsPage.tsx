/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import type { Api } from "@shopify/ui-extensions/customer-account.page.render";
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { SavedItemsError, toSavedItemsError } from "../../shared/errors";
import { APP_URL_NOT_CONFIGURED } from "./lib/app-url";
import { errorMessageKey } from "./lib/error-messages";
import { createPager, INITIAL_PAGER_STATE, isEmpty, PAGE_SIZE, type PagerState } from "./lib/paging";
import { fallbackTitle, itemView } from "./lib/snapshot";
import type { ListItem } from "../../shared/wire";
import { createClientFor, extensionApi, listContext } from "./platform";
import { ListSettings, ListsPanel, useLists } from "./ListsPanel";
import { SharePanel } from "./SharePanel";

export default async () => {
  render(<SavedItemsPage />, document.body);
};

const NOT_CONFIGURED = new SavedItemsError(
  APP_URL_NOT_CONFIGURED,
  "SAVED_ITEMS_APP_URL was not set at build time",
  0,
  false,
);

function SavedItemsPage() {
  const api = extensionApi() as Api;
  const t = api.i18n.translate;
  const defaultContext = listContext(api);
  const [context, setContext] = useState(defaultContext);
  const client = useMemo(() => createClientFor(api), [api]);
  const lists = useLists(client);
  const openList = lists.state.lists.find((list) => list.context === context);
  const [state, setState] = useState<PagerState>(INITIAL_PAGER_STATE);
  const pager = useMemo(
    () => client && createPager((cursor) => client.list({ context, limit: PAGE_SIZE, cursor }), setState),
    [client, context],
  );
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [removeError, setRemoveError] = useState<SavedItemsError | null>(null);

  useEffect(() => {
    void pager?.reload();
  }, [pager]);

  if (!client || !pager) {
    return (
      <s-page heading={t("page.title")}>
        <s-banner tone="critical" heading={t("error.heading")}>
          {t(errorMessageKey(NOT_CONFIGURED))}
        </s-banner>
      </s-page>
    );
  }

  async function remove(item: ListItem) {
    setRemoveError(null);
    setRemoving((current) => new Set(current).add(item.id));
    try {
      await client!.remove({ context, entityType: item.entityType, entityGid: item.entityGid });
      await pager!.removeLocally(item.id);
      lists.itemRemoved(context);
      void api.toast.show(t("page.removed"));
    } catch (error) {
      setRemoveError(toSavedItemsError(error));
    } finally {
      setRemoving((current) => {
        const next = new Set(current);
        next.delete(item.id);
        return next;
      });
    }
  }

  const firstLoad = state.status === "loading" || (state.status === "idle" && state.items.length === 0);
  return (
    <s-page heading={t("page.title")}>
      <s-stack direction="block" gap="base">
        {state.error && (
          <s-banner tone="critical" heading={t("error.heading")}>
            <s-stack direction="block" gap="small">
              <s-paragraph>{t(errorMessageKey(state.error))}</s-paragraph>
              {state.error.retryable && (
                <s-button variant="secondary" onClick={() => void pager.retry()}>
                  {t("page.retry")}
                </s-button>
              )}
            </s-stack>
          </s-banner>
        )}
        {removeError && (
          <s-banner
            tone="critical"
            heading={t("error.removeHeading")}
            dismissible
            onDismiss={() => setRemoveError(null)}
          >
            {t(errorMessageKey(removeError))}
          </s-banner>
        )}
        {firstLoad && (
          <s-stack direction="inline" justifyContent="center" padding="large">
            <s-spinner accessibilityLabel={t("page.loading")} />
          </s-stack>
        )}
        {isEmpty(state) && (
          <s-section>
            <s-paragraph>{t("page.empty")}</s-paragraph>
          </s-section>
        )}
        {state.items.length > 0 && (
          <s-section>
            <s-stack direction="block" gap="base">
              {state.items.map((item) => (
                <SavedItemRow
                  key={item.id}
                  item={item}
                  removing={removing.has(item.id)}
                  onRemove={() => void remove(item)}
                />
              ))}
            </s-stack>
          </s-section>
        )}
        {state.items.length > 0 && <SharePanel key={context} client={client} context={context} />}
        {state.hasNextPage && state.status !== "error" && (
          <s-button variant="secondary" loading={state.status === "loading-more"} onClick={() => void pager.loadMore()}>
            {t("page.loadMore")}
          </s-button>
        )}
        <ListsPanel client={client} lists={lists} open={context} onOpen={setContext} />
        {openList && (
          <ListSettings
            client={client}
            list={openList}
            onRenamed={lists.put}
            onDeleted={(deleted) => {
              lists.drop(deleted);
              setContext(defaultContext);
            }}
          />
        )}
      </s-stack>
    </s-page>
  );
}

function SavedItemRow({ item, removing, onRemove }: { item: ListItem; removing: boolean; onRemove: () => void }) {
  const api = extensionApi();
  const t = api.i18n.translate;
  const view = itemView(item);
  const title = view.title ?? fallbackTitle(item);
  const savedAt = item.savedAt ? new Date(item.savedAt) : null;
  return (
    <s-stack direction="inline" gap="base" alignItems="center" justifyContent="space-between">
      <s-stack direction="inline" gap="base" alignItems="center">
        {view.imageUrl && <s-product-thumbnail src={view.imageUrl} alt={title} size="small" />}
        <s-stack direction="block" gap="small-100">
          <s-text type="strong">{title}</s-text>
          {view.price && <s-text color="subdued">{view.price}</s-text>}
          {savedAt && !Number.isNaN(savedAt.getTime()) && (
            <s-text color="subdued">
              {t("page.savedOn", { date: api.i18n.formatDate(savedAt, { dateStyle: "medium" }) })}
            </s-text>
          )}
        </s-stack>
      </s-stack>
      <s-button
        variant="secondary"
        tone="critical"
        loading={removing}
        disabled={removing}
        accessibilityLabel={t("page.removeLabel", { title })}
        onClick={onRemove}
      >
        {t("page.remove")}
      </s-button>
    </s-stack>
  );
}
