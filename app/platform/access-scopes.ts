/**
 * What the app asks of a shop: the platform library checks a session's scopes against these.
 * shopify.app.toml requests exactly these (tests/deploy/app-config.test.ts checks), so they are a
 * fact of the code, not of a deployment.
 */
export const ACCESS_SCOPES =
  "read_customers,read_inventory,read_metaobjects,read_products,write_app_proxy,write_metaobjects";
