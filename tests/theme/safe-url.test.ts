// The theme script's check on a snapshot's link and image (a snapshot is whatever a client
// stored): what it lets through must stay on the shop's site or be https, as a browser reads it.
// node's URL is the WHATWG URL parser browsers implement.
import { describe, expect, test } from "vitest";
import { isSafeUrl } from "../../extensions/saved-items-theme-src/dom";

const PAGE = "https://shop.example/pages/saved-items";
const sameSite = (url: string) => new URL(url, PAGE).origin === new URL(PAGE).origin;

describe("isSafeUrl", () => {
  test.each([
    "/\\evil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "\\\\evil.example",
    "//evil.example",
    " //evil.example",
    "\t//evil.example",
    "javascript:alert(1)",
    "http://evil.example",
    "data:text/html,x",
  ])("refuses %j, which a browser may send off-site", (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });

  test.each(["/products/snowboard", "/products/snowboard?variant=1#top", "/", "https://cdn.shopify.com/x.png"])(
    "accepts %j",
    (url) => {
      expect(isSafeUrl(url)).toBe(true);
    },
  );

  test("every accepted path resolves on the shop's own site, as a browser resolves it", () => {
    const candidates = ["/", "\\", "\t", "\n", "\r", " ", "/", "x", "%2f", "%5c"];
    let accepted = 0;
    for (const first of candidates)
      for (const second of candidates)
        for (const third of candidates) {
          const url = `/${first}${second}${third}evil.example`;
          if (!isSafeUrl(url)) continue;
          accepted++;
          expect(sameSite(url), JSON.stringify(url)).toBe(true);
        }
    expect(accepted).toBeGreaterThan(0);
  });
});
