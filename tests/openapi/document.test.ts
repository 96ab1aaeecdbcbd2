import path from "node:path";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, test } from "vitest";
import { ERROR_CODES, type ErrorCode } from "~/lib/errors";
import { DIRECT_ROUTES, PROXY_ONLY_ERROR_CODES, UNROUTED_ERROR_CODES } from "~/edge/openapi/direct-routes";
import { EXCHANGE_PATHS, OPERATION_NAMESPACES, operationPath } from "~/edge/route-table";
import { OPERATION_NAMES } from "~/operations/operations";
import { buildOpenApiDocument, getOpenApiDocument } from "~/edge/openapi/document.server";
import { loader } from "~/routes/api.openapi[.]json";
import { APP_URL, sendToApp } from "../support/app";
import { directRequest } from "../support/direct";
import { componentUri, documentAjv } from "../support/openapi";

const APP_DIR = path.resolve(__dirname, "../../app");
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** URL path → route file, computed by Remix's own flat-routes convention (as vite.config.ts configures it). */
function routeFiles(): Map<string, string> {
  const routes = Object.values(flatRoutes(APP_DIR, ["**/.*", "**/*.test.*"]));
  return new Map(routes.filter((route) => route.path).map((route) => [`/${route.path}`, route.file]));
}

const DIRECT_CHANNELS = ["headless", "customer-account"] as const;

/**
 * Every URL the direct-channel route files serve, with each namespace's $operation param route
 * expanded over the operation catalogue: url → route file.
 */
function directRouteUrls(): Map<string, string> {
  const urls = new Map<string, string>();
  for (const [url, file] of routeFiles()) {
    if (!/^\/api\/(headless|customer-account)\//.test(url)) continue;
    if (!url.endsWith("/:operation")) urls.set(url, file);
    else for (const operation of OPERATION_NAMES) urls.set(url.replace(":operation", operation), file);
  }
  return urls;
}

function documentedOperations(): { path: string; method: string }[] {
  return Object.entries(getOpenApiDocument().paths).flatMap(([route, item]) =>
    Object.keys(item)
      .filter((key) => HTTP_METHODS.includes(key))
      .map((method) => ({ path: route, method })),
  );
}

async function openApiResponse(headers: Record<string, string> = {}): Promise<Response> {
  return loader({ request: new Request(new URL("/api/openapi.json", APP_URL), { headers }), params: {}, context: {} });
}

describe("GET /api/openapi.json", () => {
  test("serves the document as public, cacheable JSON with an ETag", async () => {
    const response = await openApiResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual(getOpenApiDocument());

    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await openApiResponse({ "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
  });

  test("the route file is named so the URL is exactly /api/openapi.json (flat routes escape the dot)", () => {
    expect(routeFiles().get("/api/openapi.json")).toBe("routes/api.openapi[.]json.ts");
  });

  test("is built once per process and deterministic", () => {
    expect(getOpenApiDocument()).toBe(getOpenApiDocument());
    expect(buildOpenApiDocument()).toEqual(getOpenApiDocument());
  });
});

describe("the document", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(getOpenApiDocument()) as unknown as Record<string, unknown>,
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("every schema in it compiles under ajv's strict mode (JSON Schema 2020-12)", () => {
    const ajv = documentAjv({ strict: true });
    const document = getOpenApiDocument();
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.compile({ $ref: componentUri(name) }), name).not.toThrow();
    }
    for (const { path: route, method } of documentedOperations()) {
      for (const parameter of document.paths[route]![method]!.parameters ?? []) {
        expect(() => ajv.compile(parameter.schema), `${method} ${route} ${parameter.name}`).not.toThrow();
      }
    }
  });

  test("documents every URL the direct-channel route files serve, and nothing else", () => {
    const urls = directRouteUrls();
    const expected = DIRECT_CHANNELS.flatMap((channel) => [
      EXCHANGE_PATHS[channel],
      ...OPERATION_NAMES.map((operation) => operationPath(channel, operation)),
    ]);
    expect([...urls.keys()].sort()).toEqual(expected.sort());
    const documented = new Set(documentedOperations().map((operation) => operation.path));
    expect([...documented].sort()).toEqual([...urls.keys()].sort());
  });

  test("each namespace serves its operations through one param route, and an unknown name is NOT_FOUND 404", async () => {
    for (const channel of DIRECT_CHANNELS) {
      expect(routeFiles().get(`${OPERATION_NAMESPACES[channel]}/:operation`)).toMatch(/\.\$operation\.ts$/);
      const response = await sendToApp(
        directRequest(`${OPERATION_NAMESPACES[channel]}/no-such-operation`, { method: "GET" }),
      );
      expect(response.status).toBe(404);
      expect((await response.json()).error).toEqual({
        code: "NOT_FOUND",
        message: expect.any(String),
        retryable: false,
      });
    }
  });

  // The method is read from the route itself: the documented one gets past the method check,
  // any other is VALIDATION_ERROR 405.
  test.each([...directRouteUrls().keys()])("%s is documented with the method the route accepts", async (route) => {
    const methods = documentedOperations()
      .filter((operation) => operation.path === route)
      .map((operation) => operation.method);
    expect(methods).toHaveLength(1);
    for (const method of ["GET", "POST"]) {
      const response = await sendToApp(directRequest(route, { method }));
      const body = await response.json();
      if (method.toLowerCase() === methods[0]) {
        expect(response.status, `${method} ${route}`).not.toBe(405);
      } else {
        expect({ status: response.status, code: body.error.code }, `${method} ${route}`).toEqual({
          status: 405,
          code: "VALIDATION_ERROR",
        });
      }
    }
  });

  test("GET operations take query parameters and POST operations a JSON body (the customer-account exchange none)", () => {
    for (const { path: route, method } of documentedOperations()) {
      const operation = getOpenApiDocument().paths[route]![method]!;
      if (method === "get") {
        expect(operation.requestBody, route).toBeUndefined();
        expect(operation.parameters?.length, route).toBeGreaterThan(0);
      } else {
        expect(operation.parameters, route).toBeUndefined();
        if (route === "/api/customer-account/auth/exchange") expect(operation.requestBody).toBeUndefined();
        else
          expect(operation.requestBody?.content["application/json"].schema.$ref, route).toMatch(
            /^#\/components\/schemas\//,
          );
      }
    }
  });

  test("operations take the service token; the exchanges take the session token or nothing", () => {
    const document = getOpenApiDocument();
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "customerAccountSessionToken",
      "serviceToken",
    ]);
    for (const { path: route, method } of documentedOperations()) {
      const { security } = document.paths[route]![method]!;
      const expected =
        route === "/api/headless/auth/exchange"
          ? []
          : route === "/api/customer-account/auth/exchange"
            ? [{ customerAccountSessionToken: [] }]
            : [{ serviceToken: [] }];
      expect(security, route).toEqual(expected);
    }
  });

  test("limit is an integer query parameter with its minimum, maximum and default (z.coerce at the edge)", () => {
    for (const namespace of ["headless", "customer-account"]) {
      const parameters = getOpenApiDocument().paths[`/api/${namespace}/list`]!.get!.parameters!;
      expect(parameters.find((parameter) => parameter.name === "limit")).toEqual({
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      });
      expect(parameters.find((parameter) => parameter.name === "context")?.required).toBe(true);
    }
  });

  test("every success is the envelope {ok: true, data}", () => {
    const document = getOpenApiDocument();
    for (const { path: route, method } of documentedOperations()) {
      const ref = document.paths[route]![method]!.responses["200"]!.content["application/json"].schema.$ref as string;
      const envelope = document.components.schemas[ref.replace("#/components/schemas/", "")]!;
      expect(envelope, route).toMatchObject({
        type: "object",
        properties: { ok: { const: true }, data: { $ref: expect.stringMatching(/^#\/components\/schemas\//) } },
        required: ["ok", "data"],
      });
    }
  });
});

describe("error codes in the document", () => {
  const document = () => getOpenApiDocument();
  const envelopeCodes = () =>
    (
      document().components.schemas.ErrorEnvelope as {
        properties: { error: { properties: { code: { enum: string[] } } } };
      }
    ).properties.error.properties.code.enum;

  /** code → statuses at which some documented operation lists it. */
  function listedCodes(): Map<string, Set<number>> {
    const listed = new Map<string, Set<number>>();
    for (const { path: route, method } of documentedOperations()) {
      for (const [status, response] of Object.entries(document().paths[route]![method]!.responses)) {
        if (status === "200") continue;
        const [ref, narrowing] = response.content["application/json"].schema.allOf as [
          { $ref: string },
          { properties: { error: { properties: { code: { enum: string[] } } } } },
        ];
        expect(ref.$ref).toBe("#/components/schemas/ErrorEnvelope");
        for (const code of narrowing.properties.error.properties.code.enum) {
          listed.set(code, (listed.get(code) ?? new Set()).add(Number(status)));
        }
      }
    }
    return listed;
  }

  test("every code of ERROR_CODES the direct channels can return is listed, at its status", () => {
    const listed = listedCodes();
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      if ([...PROXY_ONLY_ERROR_CODES, ...UNROUTED_ERROR_CODES].includes(code as never)) continue;
      expect(listed.get(code), code).toBeDefined();
      expect([...listed.get(code)!], code).toContain(ERROR_CODES[code].status);
    }
  });

  test("no code is listed at a status other than its own, except VALIDATION_ERROR's 405, 413 and 415", () => {
    for (const [code, statuses] of listedCodes()) {
      const expected = code === "VALIDATION_ERROR" ? [400, 405, 413, 415] : [ERROR_CODES[code as ErrorCode].status];
      expect([...statuses].sort(), code).toEqual(expected);
    }
  });

  test("the Online Store-only codes appear nowhere, and the error envelope's enum is exactly the rest", () => {
    expect(PROXY_ONLY_ERROR_CODES).toEqual(["INVALID_PROXY_SIGNATURE"]);
    const listed = listedCodes();
    for (const code of PROXY_ONLY_ERROR_CODES) expect(listed.has(code)).toBe(false);
    const expected = Object.keys(ERROR_CODES).filter(
      (code) => !(PROXY_ONLY_ERROR_CODES as readonly string[]).includes(code),
    );
    expect(envelopeCodes()).toEqual(expected);
    const routed = expected.filter((code) => !(UNROUTED_ERROR_CODES as readonly string[]).includes(code));
    expect([...listed.keys()].sort()).toEqual(routed.sort());
  });

  test("each status's retryable flag is the one ERROR_CODES gives its codes", () => {
    for (const route of DIRECT_ROUTES) {
      for (const [status, response] of Object.entries(document().paths[route.path]![route.method]!.responses)) {
        if (status === "200") continue;
        const narrowing = (response.content["application/json"].schema.allOf as { properties?: any }[])[1]!;
        const codes: ErrorCode[] = narrowing.properties.error.properties.code.enum;
        const flags = new Set(codes.map((code) => ERROR_CODES[code].retryable));
        const documented = narrowing.properties.error.properties.retryable;
        if (flags.size === 1) expect(documented, `${route.path} ${status}`).toEqual({ const: [...flags][0] });
        else expect(documented).toBeUndefined();
      }
    }
  });
});
