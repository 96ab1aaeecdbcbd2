import { describe, expect, test } from "vitest";
import { sharedImage, sharedLink, sharedSnapshot } from "./shared-snapshot";

const SHOP = "demo.myshopify.com";

describe("what a stranger sees of a snapshot's links and images", () => {
  test("links: the shop's own paths (as a browser resolves them), nothing off the site", () => {
    expect(sharedLink("/products/linen-shirt?variant=1#top", SHOP)).toBe("/products/linen-shirt?variant=1#top");
    expect(sharedLink("  /collections/all ", SHOP)).toBe("/collections/all");
    expect(sharedLink(`https://${SHOP}/products/linen-shirt`, SHOP)).toBe("/products/linen-shirt");
    expect(sharedLink(`//${SHOP}/products/linen-shirt`, SHOP)).toBe("/products/linen-shirt");
    expect(sharedLink("/products/../pages/contact", SHOP)).toBe("/pages/contact");
    for (const hostile of [
      "https://evil.example/products/linen-shirt",
      "https://cdn.shopify.com/s/files/x.jpg",
      "//evil.example/x",
      "/\\evil.example/x",
      "/\t/evil.example",
      "/\n/evil.example",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      `http://${SHOP}/products/linen-shirt`,
      `https://${SHOP}.evil.example/products/linen-shirt`,
      `https://${SHOP}@evil.example/`,
      "https://other-shop.myshopify.com/products/linen-shirt",
      "",
      42,
      undefined,
    ])
      expect(sharedLink(hostile, SHOP), String(hostile)).toBeUndefined();
  });

  test("images: the platform's CDN over https and the shop's /cdn/ paths, nothing else", () => {
    expect(sharedImage("https://cdn.shopify.com/s/files/1/shirt.jpg?v=1", SHOP)).toBe(
      "https://cdn.shopify.com/s/files/1/shirt.jpg?v=1",
    );
    expect(sharedImage("//cdn.shopify.com/s/files/1/shirt.jpg", SHOP)).toBe(
      "https://cdn.shopify.com/s/files/1/shirt.jpg",
    );
    expect(sharedImage("HTTPS://CDN.SHOPIFY.COM/s/files/1/shirt.jpg", SHOP)).toBe(
      "https://cdn.shopify.com/s/files/1/shirt.jpg",
    );
    expect(sharedImage(`//${SHOP}/cdn/shop/files/shirt.jpg?v=2`, SHOP)).toBe("/cdn/shop/files/shirt.jpg?v=2");
    expect(sharedImage("/cdn/shop/files/shirt.jpg", SHOP)).toBe("/cdn/shop/files/shirt.jpg");
    for (const hostile of [
      "https://cdn.shopify.com.evil.example/shirt.jpg",
      "https://cdn.shopify.com@evil.example/shirt.jpg",
      "https://evilcdn.shopify.com/shirt.jpg",
      "https://cdn.shopify.com:8443/shirt.jpg",
      "http://cdn.shopify.com/s/files/1/shirt.jpg",
      "https://evil.example/pixel.gif",
      "//evil.example/pixel.gif",
      "/\\evil.example/pixel.gif",
      "/cdn/../apps/saved-items/api/list",
      "/products/linen-shirt",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "javascript:alert(1)",
      `//${SHOP}.evil.example/cdn/shop/files/shirt.jpg`,
    ])
      expect(sharedImage(hostile, SHOP), hostile).toBeUndefined();
  });

  test("a snapshot keeps its other fields; a dropped url or image is left out", () => {
    expect(
      sharedSnapshot(
        { title: "Linen shirt", handle: "linen-shirt", price: "€49", url: "https://evil.example", image: "data:," },
        SHOP,
      ),
    ).toEqual({ title: "Linen shirt", handle: "linen-shirt", price: "€49" });
    expect(sharedSnapshot({ url: "/products/a", image: "https://cdn.shopify.com/a.jpg" }, SHOP)).toEqual({
      url: "/products/a",
      image: "https://cdn.shopify.com/a.jpg",
    });
  });
});
