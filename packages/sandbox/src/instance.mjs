// One app instance of the sandbox: the production server (build/server.js) exactly as `npm start`
// runs it. The sandbox holds this process's stdin open; when the sandbox goes away, however it
// went, the pipe closes and the instance stops gracefully instead of outliving it.
process.stdin.on("close", () => process.kill(process.pid, "SIGTERM"));
process.stdin.resume();
await import(new URL("../../../build/server.js", import.meta.url).href);
