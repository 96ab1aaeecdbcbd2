// Static files, as remix-serve serves them: fingerprinted assets for a year, the rest for an hour.
import type { ServerResponse } from "node:http";
import path from "node:path";
import express, { type Express } from "express";
import { stateOf } from "./request-state";

/** A last path segment with an extension (robots.txt, favicon.ico): what public/ can hold. */
export const FILE_NAME = /\/[^/]+\.[A-Za-z0-9]+$/;

/** Serves the Remix client build (build/client) from `clientDir`. */
export function mountStaticFiles(app: Express, clientDir: string): void {
  const markRoute = (route: string) => (res: ServerResponse) => void (stateOf(res).route = route);
  app.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), {
      immutable: true,
      maxAge: "1y",
      setHeaders: markRoute("/assets/*"),
    }),
  );
  // Only a path naming a file can be one: the app's routes (proxy, API, admin, webhooks) go on
  // without a filesystem lookup each.
  const publicFiles = express.static(clientDir, { maxAge: "1h", setHeaders: markRoute("static") });
  app.use((req, res, next) => (FILE_NAME.test(req.path) ? publicFiles(req, res, next) : next()));
}
