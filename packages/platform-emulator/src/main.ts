// The emulated platform as its own process:
//
//   tsx packages/platform-emulator/src/main.ts [--port 0] [--host 127.0.0.1] [--setup module.ts]
//
// Prints `EMULATOR_URL=http://host:port` on stdout once it answers, and nothing else there; what a
// setup module reports goes to stderr. Exits on SIGTERM or SIGINT, and with --exit-with-parent
// also when its stdin closes, which is how a spawning process that died without stopping it is noticed.
//
// Unlike the in-process emulator (lag 0, so tests are deterministic), searches lag writes by
// 250 ms by default here: the platform's search index is eventually consistent, and a sandbox
// should show it. --search-lag 0 turns that off.
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { startEmulatorServer } from "./http-server";
import { createPlatformEmulator } from "./index";
import { getSchema, SCHEMA_APIS, SCHEMA_VERSION } from "./schemas";
import { DEFAULT_ADMIN_TOKEN_LIFETIME_SECONDS } from "./tokens";
import { DEFAULT_METAOBJECT_ENTRY_CAP } from "./limits";
import type { EmulatorSetup } from "./types";

const DEFAULT_SEARCH_LAG_MS = 250;
// Long enough for the admin to show a bulk operation's progress, short enough not to bore.
const SANDBOX_BULK_OPERATION_MS = 4_000;

const USAGE = `usage: tsx packages/platform-emulator/src/main.ts [options]
  --port <n>              port to listen on; 0 (default) picks a free one
  --host <address>        address to listen on (default 127.0.0.1)
  --setup <module>        a module whose default export (an EmulatorSetup) fills the emulator before it listens
  --setup-argument <text> passed to that function, e.g. the file it reads its shops from
  --search-lag <ms>       how late metaobjects(query:) sees a write (default ${DEFAULT_SEARCH_LAG_MS})
  --token-lifetime <s>    lifetime of expiring admin access tokens (default ${DEFAULT_ADMIN_TOKEN_LIFETIME_SECONDS})
  --entry-cap <n>         entries per metaobject definition and shop (default ${DEFAULT_METAOBJECT_ENTRY_CAP}, the platform's)
  --client-id <key>       the app's API key (default $SHOPIFY_API_KEY), for the OAuth token endpoint
  --client-secret <s>     the app's API secret (default $SHOPIFY_API_SECRET)
  --exit-with-parent      exit when stdin closes`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) fail(`--${flag} must be a number >= 0, not ${value}`);
  return parsed;
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      setup: { type: "string" },
      "setup-argument": { type: "string" },
      "search-lag": { type: "string" },
      "token-lifetime": { type: "string" },
      "entry-cap": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "exit-with-parent": { type: "boolean" },
      help: { type: "boolean" },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const emulator = createPlatformEmulator({
  searchLagMs: number("search-lag", args["search-lag"]) ?? DEFAULT_SEARCH_LAG_MS,
  adminTokenLifetimeSeconds: number("token-lifetime", args["token-lifetime"]),
  metaobjectEntryCap: number("entry-cap", args["entry-cap"]),
  clientId: args["client-id"] ?? (process.env.SHOPIFY_API_KEY || undefined),
  clientSecret: args["client-secret"] ?? (process.env.SHOPIFY_API_SECRET || undefined),
});
if (args.setup) {
  const setup = (await import(pathToFileURL(path.resolve(args.setup)).href)) as { default: EmulatorSetup };
  await setup.default(emulator, args["setup-argument"]);
}
// Building the schemas takes a moment; doing it now keeps it out of the first request's time.
emulator.setBulkOperationDuration(SANDBOX_BULK_OPERATION_MS);
for (const api of SCHEMA_APIS) getSchema(api, SCHEMA_VERSION);

const server = await startEmulatorServer({
  emulator,
  port: number("port", args.port) ?? 0,
  host: args.host ?? "127.0.0.1",
});
console.log(`EMULATOR_URL=${server.url}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
if (args["exit-with-parent"]) {
  process.stdin.on("end", stop);
  process.stdin.on("error", stop);
  process.stdin.resume();
}
