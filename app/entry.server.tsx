import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { databaseTarget, getEnv } from "~/config/env.server";
import prisma, { pool } from "~/db.server";
import { isApiPath } from "~/edge/route-table";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { applyMigrations } from "~/infrastructure/database/migrations.server";
import { ENVELOPE_HEADERS, errorEnvelope } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { errorFields, redactSecrets, writeLog } from "~/lib/json-log";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { readiness as readinessOf } from "~/infrastructure/readiness.server";
import { startBackgroundJobs, stopBackgroundJobs } from "~/services/background-jobs.server";
import { releaseUsageLeases } from "~/services/usage/monthly-budget.server";
import { addDocumentResponseHeaders } from "./shopify.server";

// What the HTTP server (server/http-server.ts) takes from this module, `build.entry.module`, rather
// than bundling its own copies: the request scope's AsyncLocalStorage and the metrics registry must
// be the very instances the routes use, and those live in this build; a signed body's check is the
// app's (its secret is the app's configuration), which the server runs before the app reads the body.
export { runInRequestScope } from "~/lib/request-context.server";
export { metricsRegistry } from "~/lib/metrics.server";
export { BODY_SIGNATURE_HEADER, bodySignatureCheck } from "~/edge/front-doors/body-signature.server";
export { withResourceMethods } from "~/edge/resource-methods.server";
export { answerProxyQuery } from "~/edge/operation-route.server";

/** Whether this instance can serve (GET /readyz): see infrastructure/readiness.server.ts. */
export const readiness = () => readinessOf(pool);

/**
 * Before the server listens: a PostgreSQL database gets the migrations this build ships, under the
 * migration lock (instances starting together take turns), unless SKIP_MIGRATIONS=1 says the
 * deployment runs them itself. An embedded database migrated itself when it opened. Then the
 * background jobs start (services/background-jobs.server.ts): the pending customer redactions'
 * later passes (owed whatever happened to the instance that took the webhook), the saved-by
 * counts' flush and daily recount, the Flow fan-outs no delivery resumed, and retention; their
 * work waits in the database, so what a restart left due runs now.
 */
export async function prepare(): Promise<void> {
  if (databaseTarget().kind === "postgres" && !getEnv().SKIP_MIGRATIONS) {
    const applied = await applyMigrations(pool);
    if (applied.length > 0) writeLog("info", "migrations applied", { migrations: applied });
  }
  startBackgroundJobs();
}

/** After the last request: unspent budget units go back to the counters, then connections close. */
export async function shutdown(): Promise<void> {
  // Flow triggers and webhook fan-outs started after answering: bounded work, finished before the
  // connections they use close (a webhook id already taken would not bring them back).
  await afterAnswerSettled();
  await stopBackgroundJobs();
  await releaseUsageLeases().catch((error: unknown) =>
    writeLog("error", "returning unspent budget units failed", { error: errorFields(error) }),
  );
  // What the app holds open: database connections, the coordinator's.
  await Promise.allSettled([prisma.$disconnect(), getCoordinator().close()]);
}

export const streamTimeout = 5000;

/**
 * An error that reached the root route, which has no error boundary (an unknown path, a method no
 * route answers, an unexpected failure), answered plainly rather than with a rendered page.
 */
function rootErrorResponse(request: Request, error: unknown, status: number, headers: Headers): Response {
  const routeError = isRouteErrorResponse(error) ? error : undefined;
  const failure =
    status === 404
      ? new ServiceError("NOT_FOUND", "No route for this path")
      : status >= 500
        ? new ServiceError("INTERNAL_ERROR", routeError?.statusText || "Unexpected failure", { status })
        : new ServiceError("VALIDATION_ERROR", routeError?.statusText || "Bad request", { status });
  headers.set("Cache-Control", "no-store");
  if (isApiPath(new URL(request.url).pathname)) {
    headers.set("Content-Type", ENVELOPE_HEADERS["Content-Type"]);
    return new Response(errorEnvelope(failure), { status, headers });
  }
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(`${status} ${status === 404 ? "Not Found" : failure.message}\n`, { status, headers });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const rootError = remixContext.staticHandlerContext.errors?.root;
  if (rootError !== undefined) return rootErrorResponse(request, rootError, responseStatusCode, responseHeaders);

  addDocumentResponseHeaders(request, responseHeaders);
  const callbackName = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callbackName]: () => {
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html");
        resolve(
          new Response(createReadableStreamFromReadable(body), {
            headers: responseHeaders,
            status: responseStatusCode,
          }),
        );
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (!request.signal.aborted) logRequestError("render error", request, error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Remix's report of a failure in a loader, action or render. Client errors (an unknown path, a
 * method no route answers: route error responses below 500) are the client's business and stay
 * out of the log; so do requests the client abandoned. Anything else is one JSON line, redacted.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logRequestError("unhandled error", request, error);
};

function logRequestError(msg: string, request: Request, error: unknown): void {
  const inner = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error.data) : error;
  writeLog("error", msg, {
    requestId: request.headers.get("x-request-id") ?? undefined,
    method: request.method,
    // A share link's path opens its list: redacted like any credential in free text.
    path: redactSecrets(new URL(request.url).pathname).slice(0, 256),
    error: errorFields(inner),
  });
}
