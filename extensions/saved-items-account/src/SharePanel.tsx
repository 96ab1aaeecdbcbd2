/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { useState } from "preact/hooks";
import type { ShareLink } from "../../shared/wire";
import { useActions } from "./lib/actions";
import { errorMessageKey } from "./lib/error-messages";
import type { SavedItemsClient } from "./lib/service-client";
import { extensionApi } from "./platform";

const CLIPBOARD_ID = "saved-items-share-link";

/**
 * Share, copy and revoke for the page's list. The service keeps only a hash of the link, so a link
 * is shown once, right after it is made; "Stop sharing" is always offered because the page cannot
 * know whether an earlier visit left one active.
 */
export function SharePanel({ client, context }: { client: SavedItemsClient; context: string }) {
  const api = extensionApi();
  const t = api.i18n.translate;
  const [link, setLink] = useState<ShareLink | null>(null);
  const [displayName, setDisplayName] = useState("");
  const { busy, error, dismissError, run } = useActions<"create" | "revoke">();

  const create = () =>
    run("create", async () => {
      const name = displayName.trim();
      setLink(await client.createShareLink({ context, ...(name ? { displayName: name } : {}) }));
    });
  const revoke = () =>
    run("revoke", async () => {
      const { revoked } = await client.revokeShareLink({ context });
      setLink(null);
      void api.toast.show(t(revoked ? "share.revoked" : "share.notShared"));
    });

  return (
    <s-section heading={t("share.heading")}>
      <s-stack direction="block" gap="base">
        {error && (
          <s-banner tone="critical" heading={t("share.errorHeading")} dismissible onDismiss={dismissError}>
            {t(errorMessageKey(error))}
          </s-banner>
        )}
        {link ? (
          <s-stack direction="block" gap="small">
            <s-paragraph>{t("share.created")}</s-paragraph>
            <s-text type="strong">{link.url}</s-text>
            <s-clipboard-item id={CLIPBOARD_ID} text={link.url} onCopy={() => void api.toast.show(t("share.copied"))} />
          </s-stack>
        ) : (
          <s-text-field
            label={t("share.nameLabel")}
            maxLength={60}
            value={displayName}
            onInput={(event) => setDisplayName((event.currentTarget as HTMLInputElement).value)}
          />
        )}
        <s-stack direction="inline" gap="base">
          {link ? (
            <s-button variant="primary" commandFor={CLIPBOARD_ID} command="--copy">
              {t("share.copy")}
            </s-button>
          ) : (
            <s-button
              variant="primary"
              loading={busy === "create"}
              disabled={busy !== null}
              onClick={() => void create()}
            >
              {t("share.create")}
            </s-button>
          )}
          <s-button
            variant="secondary"
            tone="critical"
            loading={busy === "revoke"}
            disabled={busy !== null}
            onClick={() => void revoke()}
          >
            {t("share.revoke")}
          </s-button>
        </s-stack>
      </s-stack>
    </s-section>
  );
}
