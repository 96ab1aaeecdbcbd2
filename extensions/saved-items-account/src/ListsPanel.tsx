/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { toSavedItemsError, type SavedItemsError } from "../../shared/errors";
import type { SavedList } from "../../shared/wire";
import { useActions } from "./lib/actions";
import { errorMessageKey } from "./lib/error-messages";
import { listTitle, LISTS_PAGE_SIZE, MAX_LIST_NAME_LENGTH, withItemRemoved, withList, withoutList } from "./lib/lists";
import type { SavedItemsClient } from "./lib/service-client";
import { extensionApi } from "./platform";

export interface ListsState {
  lists: SavedList[];
  endCursor: string | null;
  hasNextPage: boolean;
  loading: boolean;
  error: SavedItemsError | null;
}

/** The customer's lists, loaded a page at a time, and what the page changes in them. */
export function useLists(client: SavedItemsClient | null) {
  const [state, setState] = useState<ListsState>({
    lists: [],
    endCursor: null,
    hasNextPage: false,
    loading: true,
    error: null,
  });

  const load = useCallback(
    async (cursor: string | null) => {
      if (!client) return;
      setState((current) => ({ ...current, loading: true, error: null }));
      try {
        const page = await client.lists({ limit: LISTS_PAGE_SIZE, cursor });
        setState((current) => ({
          lists: cursor
            ? [
                ...current.lists,
                ...page.lists.filter((list) => !current.lists.some((shown) => shown.context === list.context)),
              ]
            : page.lists,
          endCursor: page.pageInfo.endCursor,
          hasNextPage: page.pageInfo.hasNextPage,
          loading: false,
          error: null,
        }));
      } catch (error) {
        setState((current) => ({ ...current, loading: false, error: toSavedItemsError(error) }));
      }
    },
    [client],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const change = (next: (lists: SavedList[]) => SavedList[]) =>
    setState((current) => ({ ...current, lists: next(current.lists) }));
  return {
    state,
    loadMore: () => load(state.endCursor),
    put: (list: SavedList) => change((lists) => withList(lists, list)),
    drop: (context: string) => change((lists) => withoutList(lists, context)),
    itemRemoved: (context: string) => change((lists) => withItemRemoved(lists, context)),
  };
}

export type Lists = ReturnType<typeof useLists>;

/** The customer's lists with their counts, one of them open, and a form to make another. */
export function ListsPanel({
  client,
  lists,
  open,
  onOpen,
}: {
  client: SavedItemsClient;
  lists: Lists;
  open: string;
  onOpen: (context: string) => void;
}) {
  const api = extensionApi();
  const t = api.i18n.translate;
  const [name, setName] = useState("");
  const { busy, error, run } = useActions<"create">();
  const { state } = lists;

  async function create() {
    const trimmed = name.trim();
    if (!trimmed) return;
    await run("create", async () => {
      const list = await client.createList({ name: trimmed });
      lists.put(list);
      setName("");
      onOpen(list.context);
      void api.toast.show(t("lists.created"));
    });
  }

  const shownError = error ?? state.error;
  return (
    <s-section heading={t("lists.heading")}>
      <s-stack direction="block" gap="base">
        {shownError && (
          <s-banner tone="critical" heading={t(error ? "lists.createError" : "lists.loadError")}>
            {t(errorMessageKey(shownError))}
          </s-banner>
        )}
        {state.lists.map((list) => {
          const title = listTitle(list, t("lists.defaultName"));
          return (
            <s-stack
              key={list.context}
              direction="inline"
              gap="base"
              alignItems="center"
              justifyContent="space-between"
            >
              <s-stack direction="block" gap="small-100">
                <s-text>{title}</s-text>
                <s-text color="subdued">{t("lists.count", { count: list.itemCount })}</s-text>
              </s-stack>
              <s-button
                variant="secondary"
                disabled={list.context === open}
                accessibilityLabel={t("lists.openLabel", { title })}
                onClick={() => onOpen(list.context)}
              >
                {t(list.context === open ? "lists.isOpen" : "lists.open")}
              </s-button>
            </s-stack>
          );
        })}
        {state.hasNextPage && (
          <s-button variant="secondary" loading={state.loading} onClick={() => void lists.loadMore()}>
            {t("lists.loadMore")}
          </s-button>
        )}
        <s-text-field
          label={t("lists.newName")}
          maxLength={MAX_LIST_NAME_LENGTH}
          value={name}
          onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
        />
        <s-button
          variant="primary"
          loading={busy === "create"}
          disabled={busy !== null || !name.trim()}
          onClick={() => void create()}
        >
          {t("lists.create")}
        </s-button>
      </s-stack>
    </s-section>
  );
}

/** Rename and delete for the open list, when it is one of the customer's lists. */
export function ListSettings({
  client,
  list,
  onRenamed,
  onDeleted,
}: {
  client: SavedItemsClient;
  list: SavedList;
  onRenamed: (list: SavedList) => void;
  onDeleted: (context: string) => void;
}) {
  const api = extensionApi();
  const t = api.i18n.translate;
  const [name, setName] = useState(list.name ?? "");
  const { busy, error, dismissError, run } = useActions<"rename" | "delete">();

  useEffect(() => setName(list.name ?? ""), [list.context, list.name]);

  const rename = () =>
    run("rename", async () => {
      onRenamed(await client.renameList({ context: list.context, name: name.trim() }));
      void api.toast.show(t("lists.renamed"));
    });
  const remove = () =>
    run("delete", async () => {
      const { removedItems } = await client.deleteList({ context: list.context });
      onDeleted(list.context);
      void api.toast.show(t("lists.deleted", { count: removedItems }));
    });

  return (
    <s-section heading={t("lists.settingsHeading")}>
      <s-stack direction="block" gap="base">
        {error && (
          <s-banner tone="critical" heading={t("lists.changeError")} dismissible onDismiss={dismissError}>
            {t(errorMessageKey(error))}
          </s-banner>
        )}
        <s-text-field
          label={t("lists.nameLabel")}
          maxLength={MAX_LIST_NAME_LENGTH}
          value={name}
          onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
        />
        <s-stack direction="inline" gap="base">
          <s-button
            variant="primary"
            loading={busy === "rename"}
            disabled={busy !== null || !name.trim()}
            onClick={() => void rename()}
          >
            {t("lists.rename")}
          </s-button>
          <s-button
            variant="secondary"
            tone="critical"
            loading={busy === "delete"}
            disabled={busy !== null}
            onClick={() => void remove()}
          >
            {t("lists.delete")}
          </s-button>
        </s-stack>
      </s-stack>
    </s-section>
  );
}
