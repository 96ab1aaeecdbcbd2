/** The default list, the same as the theme blocks' default "List name". */
export const DEFAULT_LIST_CONTEXT = "wishlist";

/** The handle of the full-page extension (shopify.extension.toml); the profile block links to it. */
export const PAGE_EXTENSION_HANDLE = "saved-items-page";
/** Navigation to another installed extension by its handle (customer-account custom protocol). */
export const PAGE_EXTENSION_URL = `extension://${PAGE_EXTENSION_HANDLE}`;

/** The list name from the extension's settings (list_context), else the default. */
export function listContextFrom(settings: Record<string, unknown>): string {
  const value = settings.list_context;
  return typeof value === "string" && value.trim() ? value.trim() : DEFAULT_LIST_CONTEXT;
}
