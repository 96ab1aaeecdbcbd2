import type { SavedItemsError } from "../../../shared/errors";
import { APP_URL_NOT_CONFIGURED } from "./app-url";

/** The translation key (locales/*.json, under "error.") for a failure shown to the customer. */
export function errorMessageKey(error: SavedItemsError | null): string {
  switch (error?.code) {
    case "CUSTOMER_REQUIRED":
    case "AUTH_REQUIRED":
      return "error.loggedOut";
    case "CHANNEL_NOT_ENTITLED":
    case "SHOP_NOT_INSTALLED":
      return "error.unavailable";
    case APP_URL_NOT_CONFIGURED:
      return "error.notConfigured";
    default:
      return error?.retryable ? "error.temporary" : "error.generic";
  }
}
