// Debian's Chromium, as every browser test and benchmark launches it (test tools cannot download
// their own browser here; `npm run setup:browser` installs it).
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";

// The network is closed here: no background traffic, no sandbox (we run as root), no GPU.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserMissing: string | undefined =
  process.env.SKIP_BROWSER_TESTS === "1"
    ? "SKIP_BROWSER_TESTS=1"
    : existsSync(CHROMIUM)
      ? undefined
      : `no Chromium at ${CHROMIUM} (npm run setup:browser)`;

/** A browser test's title, with the reason it is skipped where it is. */
export const browserTestTitle = (title: string) => (browserMissing ? `${title} (skipped: ${browserMissing})` : title);
