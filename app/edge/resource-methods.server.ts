import type { ActionFunctionArgs, ServerBuild } from "@remix-run/node";
import { errorResponse, methodNotAllowed } from "./envelope.server";

/** The methods Remix hands to a route's loader, and to its action. */
const LOADER_METHODS = "GET, HEAD";
const ACTION_METHODS = "POST";

const refuse = (allowed: string) => () => errorResponse(methodNotAllowed(allowed));

/**
 * The build's routes with every resource route (one without a page to render) answering a method
 * it has no handler for with 405 and Allow, as the envelope. Remix's own answer there is a 405
 * without Allow (POST to a loader-only route) or a 400 (GET to an action-only route: a webhook,
 * Flow's callback). A route that has both handlers checks the method itself (operations, exchanges).
 * The server and the tests' handler both serve the build through this.
 */
export function withResourceMethods(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const { module } = route;
    const resource = module.default == null && (module.loader != null) !== (module.action != null);
    routes[id] = resource
      ? {
          ...route,
          module: {
            ...module,
            loader: module.loader ?? refuse(ACTION_METHODS),
            action: module.action ?? (refuse(LOADER_METHODS) as (args: ActionFunctionArgs) => Response),
          },
        }
      : route;
  }
  return { ...build, routes };
}
