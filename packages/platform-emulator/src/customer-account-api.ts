import { graphqlRoute, plainRoute, type Route } from "./exchange";
import { executeOperation, prepareOperation } from "./graphql-execution";
import { jsonReply, NOT_FOUND } from "./reply";
import { getSchema } from "./schemas";
import { shopByDomain, shopByNumericId, violationReporter, type EmulatorState } from "./state";

const DISCOVERY_URL = /^https:\/\/([^/]+)\/\.well-known\/customer-account-api$/;
const GRAPHQL_URL = /^https:\/\/shopify\.com\/(\d+)\/account\/customer\/api\/([^/]+)\/graphql$/;
const DISCOVERED_VERSION = "2026-10";

// Hydrogen, Shopify's own client, sends the raw access token with no "Bearer " prefix. What the
// platform does with a Bearer-prefixed token is unconfirmed; rejecting it keeps the app on the
// documented form. The 401 body shape is likewise an assumption modelled on GraphQL error bodies.
const UNAUTHORIZED = jsonReply(401, { errors: [{ message: "Unauthorized", extensions: { code: "UNAUTHORIZED" } }] });

export function customerAccountApiRoutes(state: EmulatorState): Route[] {
  return [
    plainRoute(state, {
      api: "customer-account-discovery",
      method: "GET",
      url: DISCOVERY_URL,
      shopOf: ([host]) => host ?? "",
      handle: (_request, [host]) => {
        const shop = shopByDomain(state, host);
        if (!shop) return NOT_FOUND;
        const base = `https://shopify.com/${shop.numericId}/account/customer/api`;
        return jsonReply(200, { graphql_api: `${base}/${DISCOVERED_VERSION}/graphql`, mcp_api: `${base}/mcp` });
      },
    }),
    graphqlRoute(state, {
      api: "customer-account",
      url: GRAPHQL_URL,
      shopOf: ([numericId]) => shopByNumericId(state, numericId)?.domain ?? `shopify.com/${numericId}`,
      handle: async ({ request, groups: [numericId, version], graphql }) => {
        const shop = shopByNumericId(state, numericId);
        const schema = getSchema("customer-account", version);
        if (!shop || !schema) return NOT_FOUND;
        const token = request.headers.get("Authorization");
        const customer = shop.customers.find(
          (candidate) => token !== null && candidate.customerAccountAccessToken === token,
        );
        if (!customer) return UNAUTHORIZED;
        const prepared = prepareOperation(schema, graphql, violationReporter(state, "customer-account", graphql.query));
        if ("rejection" in prepared) return prepared.rejection;
        const root = { customer: { id: customer.id, emailAddress: null, firstName: null, lastName: null } };
        return jsonReply(200, await executeOperation(prepared, root));
      },
    }),
  ];
}
