// The bench's baseline: the least any server must do for an is-saved over the app proxy (verify the
// signature with the app's own verifier, answer JSON) on plain node:http, in a process of its own
// so that its CPU is measured as the app's is. Stricter than a bare Remix resource route.
import http from "node:http";
import { verifyProxyRequest } from "~/edge/front-doors/proxy-signature.server";

const secret = process.env.SHOPIFY_API_SECRET!;
const saved = JSON.stringify({ ok: true, data: { saved: false } });
const refused = JSON.stringify({ ok: false, error: { code: "INVALID_PROXY_SIGNATURE" } });

const server = http.createServer((req, res) => {
  let ok = true;
  try {
    verifyProxyRequest(new URL(req.url ?? "/", "http://baseline"), secret, new Date());
  } catch {
    ok = false;
  }
  const body = ok ? saved : refused;
  res
    .writeHead(ok ? 200 : 401, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) })
    .end(body);
});
// The same keep-alive window as the app's server, so connections are reused alike.
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
// Like a sandbox instance: gone when the bench that started it is gone.
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
