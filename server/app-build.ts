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
  | "runInRequestScope"
  | "readiness"
  | "prepare"
  | "shutdown"
  | "bodySignatureCheck"
  | "BODY_SIGNATURE_HEADER"
  | "withResourceMethods"
  | "answerProxyQuery"
> & {
  metricsRegistry: Registry;
};

const REQUIRED_EXPORTS = [
  "runInRequestScope",
  "readiness",
  "prepare",
  "shutdown",
  "metricsRegistry",
  "bodySignatureCheck",
  "BODY_SIGNATURE_HEADER",
  "withResourceMethods",
  "answerProxyQuery",
] as const;

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
  const patterns = new Set<string>();
  for (const id of Object.keys(build.routes)) patterns.add(fullPathOf(build, id) || "/");
  return [...patterns];
}

/** A route's URL pattern: its path joined to its ancestors' ("" for the root and pathless routes). */
function fullPathOf(build: ServerBuild, id: string): string {
  const route = build.routes[id];
  if (!route) return "";
  const parent = route.parentId ? fullPathOf(build, route.parentId) : "";
  return (route.path ? `${parent}/${route.path}` : parent).replace(/\/+/g, "/");
}

/**
 * The first segment of a request path as a key of narrowedBuilds, or undefined where only the whole
 * build can answer: an encoded segment, which Remix decodes before matching.
 */
export function firstSegmentOf(pathname: string): string | undefined {
  const segment = pathname.split("/", 2)[1] ?? "";
  return segment.includes("%") ? undefined : segment.toLowerCase();
}

/**
 * Remix matches each request against every route of its build twice (its own match, then its
 * static handler's), flattening and ranking the whole table each time: with the app's two dozen
 * routes that was a fifth of an is-saved's CPU. A path whose first segment is "proxy" can only
 * match routes whose pattern begins with that segment or with a dynamic one, so per first segment
 * this gives a build narrowed to those routes and their ancestors, to match against instead.
 * Only segments where every route that can match is a resource route are narrowed: a document
 * request needs the whole build (its manifest, lazy route discovery). Keys are lower-case, as
 * Remix matches without regard to case.
 */
export function narrowedBuilds(build: ServerBuild): Map<string, ServerBuild> {
  const ids = Object.keys(build.routes);
  // Routes that can be a request's deepest match: those with a path and index routes.
  const matchable = ids.filter((id) => build.routes[id]!.path !== undefined || build.routes[id]!.index);
  const firstSegments = new Map(
    matchable.map((id) => [id, (fullPathOf(build, id).split("/", 2)[1] ?? "").toLowerCase()]),
  );
  // A dynamic, optional or splat first segment matches any request's; an empty one only "/".
  const anySegment = matchable.filter((id) => /[:*?]/.test(firstSegments.get(id)!));
  const isResource = (id: string) => {
    const module = build.routes[id]!.module;
    return module.default == null && module.ErrorBoundary == null;
  };
  const narrowed = new Map<string, ServerBuild>();
  for (const segment of new Set(firstSegments.values())) {
    if (!/^[^:*?]+$/.test(segment)) continue;
    const members = [...matchable.filter((id) => firstSegments.get(id) === segment), ...anySegment];
    if (!members.every(isResource)) continue;
    const kept = new Set<string>();
    for (const member of members) {
      let id: string | undefined = member;
      while (id !== undefined && !kept.has(id)) {
        kept.add(id);
        id = build.routes[id]!.parentId;
      }
    }
    narrowed.set(segment, { ...build, routes: Object.fromEntries([...kept].map((id) => [id, build.routes[id]!])) });
  }
  return narrowed;
}
