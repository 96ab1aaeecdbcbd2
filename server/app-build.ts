import type { ServerBuild } from "@remix-run/node";
import type { Registry } from "prom-client";

/**
 * What the server needs from the Remix build's entry module (app/entry.server.tsx). It is taken
 * from the build at run time, never imported: the build bundles its own copy of the app's modules,
 * and the request scope (an AsyncLocalStorage) and the metrics registry only work if the server
 * uses the build's instances. The type is checked against the entry module itself.
 */
export type AppEntry = Pick<
  typeof import("../app/entry.server"),
  "runInRequestScope" | "readiness" | "prepare" | "shutdown"
> & {
  metricsRegistry: Registry;
};

const REQUIRED_EXPORTS = ["runInRequestScope", "readiness", "prepare", "shutdown", "metricsRegistry"] as const;

/** The build's entry module with the exports the server relies on, or an error naming what is missing. */
export function appEntryOf(build: ServerBuild): AppEntry {
  const entry = build.entry.module as unknown as Partial<AppEntry>;
  const missing = REQUIRED_EXPORTS.filter((name) => entry[name] === undefined);
  if (missing.length) {
    throw new Error(
      `The Remix build's entry module (app/entry.server.tsx) does not export ${missing.join(", ")}; rebuild with npm run build`,
    );
  }
  return entry as AppEntry;
}

/**
 * The URL pattern of every route of the build ("/proxy/api/:operation", "/app/plans", "/auth/*"),
 * from its route manifest: the bounded set of values the access log and metrics use as `route`.
 */
export function routePatternsOf(build: ServerBuild): string[] {
  const routes = build.routes;
  const fullPath = (id: string): string => {
    const route = routes[id];
    if (!route) return "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const patterns = new Set<string>();
  for (const id of Object.keys(routes)) patterns.add(fullPath(id).replace(/\/+/g, "/") || "/");
  return [...patterns];
}
