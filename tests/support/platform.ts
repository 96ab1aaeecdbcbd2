import { setupServer } from "msw/node";
import { createPlatformEmulator } from "../emulator";

/** One emulator per test file; tests reach it to seed shops, inject faults and count requests. */
export const emulator = createPlatformEmulator();
export const platformServer = setupServer(...emulator.handlers);
platformServer.listen({
  // Loopback is where black-box tests reach a sandbox they started; everything else must be emulated.
  onUnhandledRequest(request, print) {
    if (!["localhost", "127.0.0.1"].includes(new URL(request.url).hostname)) print.error();
  },
});
