import type { MetaFunction } from "@remix-run/node";

const APP_NAME = "Saved Items";

/**
 * The document title of an admin page. App Bridge shows the app's name in the admin's own title,
 * but the iframe's document is what assistive technology announces, and the platform's review
 * runs axe on it, whose document-title rule fails an untitled page.
 */
export const pageTitle =
  (page?: string): MetaFunction =>
  () => [{ title: page ? `${page} · ${APP_NAME}` : APP_NAME }];
