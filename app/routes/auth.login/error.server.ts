import { LoginErrorType, type LoginError } from "@shopify/shopify-app-remix/server";

export interface LoginErrors {
  shop?: string;
}

/** What the merchant should do about each way the library's login refuses a shop. */
export function loginErrorMessage(error: LoginError): LoginErrors {
  switch (error.shop) {
    case LoginErrorType.MissingShop:
      return { shop: "Enter your shop domain to log in" };
    case LoginErrorType.InvalidShop:
      return { shop: "Enter your shop's domain, such as example.myshopify.com" };
    default:
      return {};
  }
}
