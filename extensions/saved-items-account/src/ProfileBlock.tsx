/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import type { Api } from "@shopify/ui-extensions/customer-account.profile.block.render";
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { toSavedItemsError, type SavedItemsError } from "../../shared/errors";
import { errorMessageKey } from "./lib/error-messages";
import { countLabel, PROFILE_COUNT_LIMIT } from "./lib/paging";
import type { ListResult } from "../../shared/wire";
import { PAGE_EXTENSION_URL } from "./lib/constants";
import { createClientFor, extensionApi, listContext } from "./platform";

export default async () => {
  render(<ProfileBlock />, document.body);
};

type BlockState =
  { status: "loading" } | { status: "ready"; page: ListResult } | { status: "error"; error: SavedItemsError };

/** The count of the first page ("50+" when more follow) and a link to the full page. */
function ProfileBlock() {
  const api = extensionApi() as Api;
  const t = api.i18n.translate;
  const context = listContext(api);
  const client = useMemo(() => createClientFor(api), [api]);
  const [state, setState] = useState<BlockState>({ status: "loading" });

  useEffect(() => {
    if (!client) return;
    let current = true;
    client.list({ context, limit: PROFILE_COUNT_LIMIT }).then(
      (page) => current && setState({ status: "ready", page }),
      (error: unknown) => current && setState({ status: "error", error: toSavedItemsError(error) }),
    );
    return () => {
      current = false;
    };
  }, [client, context]);

  // Without the app URL there is nothing to count; the link still leads to the page, which explains.
  return (
    <s-section heading={t("block.title")}>
      <s-stack direction="inline" gap="base" alignItems="center" justifyContent="space-between">
        {client && state.status === "loading" && <s-spinner size="small" accessibilityLabel={t("page.loading")} />}
        {state.status === "ready" && <s-text>{summary(state.page, t)}</s-text>}
        {state.status === "error" && <s-text color="subdued">{t(errorMessageKey(state.error))}</s-text>}
        <s-link href={PAGE_EXTENSION_URL}>{t("block.viewAll")}</s-link>
      </s-stack>
    </s-section>
  );
}

function summary(page: ListResult, t: Api["i18n"]["translate"]): string {
  if (page.items.length === 0) return t("block.none");
  if (page.pageInfo.hasNextPage) return t("block.countMany", { count: countLabel(page) });
  return t("block.count", { count: page.items.length });
}
