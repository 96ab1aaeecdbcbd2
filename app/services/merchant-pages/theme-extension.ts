/**
 * The theme app extension's embed and blocks as the home page lists them, their theme editor deep
 * links, and their status as App Bridge's `app.extensions()` reports it. Not a .server module: the
 * status is read in the browser, where App Bridge runs.
 */

/** Each entry's handle is its file name in extensions/saved-items-theme/blocks, its name the schema's. */
export const THEME_EMBED = { handle: "saved-items-embed", name: "Saved items: card hearts" } as const;
export const THEME_BLOCKS = [
  // The product form's section, where the button belongs.
  { handle: "save-button", name: "Save button", template: "product", target: "mainSection" },
  // A section of its own: the list fits any page, and the home page is in every theme.
  { handle: "saved-items", name: "Saved items", template: "index", target: "newAppsSection" },
  // Beside the product form, where the shopper decides.
  { handle: "saved-by", name: "Saved by shoppers", template: "product", target: "mainSection" },
  // The cart's own section, next to the lines it moves.
  { handle: "save-for-later", name: "Save for later", template: "cart", target: "mainSection" },
] as const;

export type ThemeItemKind = "embed" | "block";

export interface ThemeItem {
  handle: string;
  name: string;
  kind: ThemeItemKind;
  /** The theme editor, opened on the embed's switch or with the block added (the merchant still saves). */
  editorUrl: string;
}

/** The platform's deep links: an embed by `activateAppId`, a block by `addAppBlockId`, both `{api key}/{handle}`. */
export function themeItems(shop: string, apiKey: string): ThemeItem[] {
  const editor = () => new URL(`https://${shop}/admin/themes/current/editor`);
  const embed = editor();
  embed.searchParams.set("context", "apps");
  embed.searchParams.set("activateAppId", `${apiKey}/${THEME_EMBED.handle}`);
  return [
    { ...THEME_EMBED, kind: "embed", editorUrl: embed.toString() },
    ...THEME_BLOCKS.map(({ handle, name, template, target }) => {
      const url = editor();
      url.searchParams.set("template", template);
      url.searchParams.set("addAppBlockId", `${apiKey}/${handle}`);
      url.searchParams.set("target", target);
      return { handle, name, kind: "block" as const, editorUrl: url.toString() };
    }),
  ];
}

/**
 * `active`: on in the published theme; `available`: not placed or switched on; `unavailable`: the
 * theme cannot take it; `unknown`: nothing reported it.
 */
export type ThemeItemStatus = "active" | "available" | "unavailable" | "unknown";

/** The part of App Bridge's ExtensionInfo read here; other extension types have other activations. */
export interface ExtensionInfoLike {
  type: string;
  activations: readonly object[];
}

const STATUSES: readonly string[] = ["active", "available", "unavailable"];

/**
 * Each item's status from `app.extensions()`. The app has one theme app extension, so it is found by
 * type: its handle is the CLI's, derived from the TOML's name. An item the answer does not name, or
 * names with a status this code does not know, stays `unknown`: never shown as enabled on a guess.
 */
export function themeItemStatuses(
  extensions: readonly ExtensionInfoLike[],
  handles: readonly string[],
): Record<string, ThemeItemStatus> {
  const activations = extensions
    .filter((extension) => extension.type === "theme_app_extension")
    .flatMap((extension) => extension.activations as readonly { handle?: unknown; status?: unknown }[]);
  return Object.fromEntries(
    handles.map((handle) => {
      const status = activations.find((activation) => activation.handle === handle)?.status;
      return [
        handle,
        typeof status === "string" && STATUSES.includes(status) ? (status as ThemeItemStatus) : "unknown",
      ];
    }),
  );
}
