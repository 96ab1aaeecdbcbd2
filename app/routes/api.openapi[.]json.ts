import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOpenApiJson } from "~/edge/openapi/document.server";

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the direct channels, generated from the
 * routes' own zod schemas (app/services/openapi). Public and cacheable; readable from any origin
 * so documentation tools in a browser can load it.
 */
export function loader({ request }: LoaderFunctionArgs): Response {
  const { json, etag } = getOpenApiJson();
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
    ETag: etag,
  };
  const cached = request.headers.get("If-None-Match");
  if (cached && cached.split(",").some((tag) => tag.trim() === etag))
    return new Response(null, { status: 304, headers });
  return new Response(json, { status: 200, headers });
}
