// `npm start`: bundled by `npm run build` into build/server.js, next to the Remix build it serves
// (build/server/index.js, build/client/). Configuration: app/config/env.server.ts, docs/deploy.md.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { errorFields, redactSecrets, writeLog } from "../app/lib/json-log";
import { ConfigError, getEnv } from "../app/config/env.server";
import { missingNodeFlags, serverConfigOf } from "./config";
import { createAppServer } from "./http-server";
import { exitOnSignals } from "./shutdown";

process.on("uncaughtException", (error) => {
  writeLog("error", "uncaught exception", { error: errorFields(error) });
  process.exit(1);
});
process.on("unhandledRejection", (reason) => {
  writeLog("error", "unhandled rejection", { error: errorFields(reason) });
  process.exit(1);
});

/**
 * A refusal to start: plain text on stderr for the person starting the process, who has no log
 * reader yet (the one exception to the JSON log, CONTRIBUTING).
 */
function refuseToStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

// Every variable, the app's and the server's, is checked here, before anything starts.
let config;
try {
  config = serverConfigOf(getEnv());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  refuseToStart(error.message);
}

const buildDir = path.dirname(fileURLToPath(import.meta.url));
const serverBuildFile = path.join(buildDir, "server/index.js");
if (!existsSync(serverBuildFile)) {
  refuseToStart(`No Remix build at ${serverBuildFile}: run npm run build first.`);
}
let build: ServerBuild;
try {
  build = (await import(pathToFileURL(serverBuildFile).href)) as ServerBuild;
} catch (error) {
  refuseToStart(redactSecrets(error instanceof Error ? error.message : String(error)));
}

const appServer = createAppServer({ build, clientDir: path.join(buildDir, "client"), config });
const missingFlags = missingNodeFlags();
if (missingFlags.length > 0) {
  appServer.log("warn", "started without the server's node flags; every request costs more CPU", {
    missing: missingFlags.join(" "),
    fix: "start with npm start, or pass them to node",
  });
}
exitOnSignals(appServer);
await appServer.listen();
