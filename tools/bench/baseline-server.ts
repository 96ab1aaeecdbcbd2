// The bench's baselines: the least a server must do for an is-saved over the app proxy (verify the
// signature with the app's own verifier, answer JSON), in a process of its own so that its CPU is
// measured as the app's is. BASELINE=node: plain node:http, the floor. BASELINE=remix: a bare Remix
// resource route on Express with compression and static files, as the platform's Remix template
// serves one, which is the comparison the cost targets are stated against.
import http from "node:http";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { verifyProxyRequest } from "~/edge/front-doors/proxy-signature.server";

const secret = process.env.SHOPIFY_API_SECRET!;
const saved = { ok: true, data: { saved: false } };
const refused = { ok: false, error: { code: "INVALID_PROXY_SIGNATURE" } };

function answer(url: URL): { status: number; body: object } {
  try {
    verifyProxyRequest(url, secret, new Date());
    return { status: 200, body: saved };
  } catch {
    return { status: 401, body: refused };
  }
}

function nodeServer(): http.Server {
  return http.createServer((req, res) => {
    const { status, body } = answer(new URL(req.url ?? "/", "http://baseline"));
    const text = JSON.stringify(body);
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
  });
}

/** A Remix build of one resource route, made by hand: no document, no assets, nothing else to match. */
function remixBuild(): ServerBuild {
  const route = (id: string, path: string | undefined, module: object, parentId?: string) => ({
    id,
    path,
    parentId,
    module,
  });
  return {
    mode: "production",
    entry: { module: { default: () => new Response("no documents", { status: 404 }) } },
    routes: {
      root: route("root", "", { default: () => null }),
      "routes/proxy.api.is-saved": route(
        "routes/proxy.api.is-saved",
        "proxy/api/is-saved",
        {
          loader: ({ request }: { request: Request }) => {
            const { status, body } = answer(new URL(request.url));
            return Response.json(body, { status });
          },
        },
        "root",
      ),
    },
    assets: { url: "/assets/manifest.js", version: "baseline", entry: { imports: [], module: "" }, routes: {} },
    publicPath: "/",
    assetsBuildDirectory: "public",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: true,
    },
    isSpaMode: false,
  } as unknown as ServerBuild;
}

function remixServer(): http.Server {
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(express.static("public", { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build: remixBuild(), mode: "production" }));
  return http.createServer(app);
}

const server = process.env.BASELINE === "remix" ? remixServer() : nodeServer();
// The same keep-alive window as the app's server, so connections are reused alike.
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
// Like a sandbox instance: gone when the bench that started it is gone.
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
