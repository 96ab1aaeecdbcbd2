// The merchant's answer to an app's request for optional scopes. On the platform the app calls App
// Bridge's `shopify.scopes.request([...])`, which opens a permission grant modal in the admin
// (shopify.dev, "Manage access scopes": optional scopes are declared in `[access_scopes]
// optional_scopes` and granted per shop at run time). The modal has no URL of its own, so the
// emulator stands in with a page at one: GET shows what is asked, POST decision=grant|decline answers.
import { plainRoute, type Route } from "./exchange";
import { jsonReply, NOT_FOUND, textReply } from "./reply";
import { setOptionalScopes, shopByDomain, type EmulatorState } from "./state";

const GRANT_URL = /^https:\/\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/admin\/apps\/optional-scopes$/;

/** The scopes asked for, from `?scopes=a,b`; undefined when one is not an optional scope of the app. */
function requested(state: EmulatorState, request: Request): string[] | undefined {
  const scopes = (new URL(request.url).searchParams.get("scopes") ?? "").split(",").filter((scope) => scope !== "");
  return scopes.length > 0 && scopes.every((scope) => state.optionalScopes.includes(scope)) ? scopes : undefined;
}

export function optionalScopeRoutes(state: EmulatorState): Route[] {
  const shopOf = ([domain]: readonly (string | undefined)[]) => domain ?? "";
  return [
    plainRoute(state, {
      api: "admin",
      method: "GET",
      url: GRANT_URL,
      shopOf,
      handle: (request, [domain]) => {
        const scopes = requested(state, request);
        if (!shopByDomain(state, domain) || !scopes) return NOT_FOUND;
        return textReply(
          200,
          `<!doctype html><html lang="en"><title>Grant access</title><main><h1>The app asks for more access</h1>` +
            `<p>${scopes.join(", ")}</p><form method="post"><button name="decision" value="grant">Grant</button>` +
            `<button name="decision" value="decline">Decline</button></form></main></html>`,
          "text/html; charset=utf-8",
        );
      },
    }),
    plainRoute(state, {
      api: "admin",
      method: "POST",
      url: GRANT_URL,
      shopOf,
      handle: async (request, [domain]) => {
        const shop = shopByDomain(state, domain);
        const scopes = requested(state, request);
        if (!shop || !scopes) return NOT_FOUND;
        const decision = new URLSearchParams(await request.text()).get("decision");
        if (decision !== "grant" && decision !== "decline") return jsonReply(400, { errors: "decision" });
        if (decision === "grant") setOptionalScopes(state, shop, scopes, true);
        // What App Bridge's scopes.request resolves with.
        return jsonReply(200, {
          result: decision === "grant" ? "granted-all" : "declined-all",
          detail: { granted: [...shop.grantedOptionalScopes].sort(), optional: [...state.optionalScopes] },
        });
      },
    }),
  ];
}
