import { describe, expect, test } from "vitest";
import { sharedListLiquid } from "./render-liquid";

describe("the shared page's heading", () => {
  const page = (displayName: string | null, listName: string | null) =>
    sharedListLiquid({ displayName, listName, items: [], hasMore: false });

  test("is a named list's name with the sharer under it, else who shared it, else a plain one", () => {
    expect(page("Ana", "Gift ideas")).toContain("<h1>Gift ideas</h1>\n<p>Saved by Ana</p>");
    expect(page(null, "Gift ideas")).toMatch(/<h1>Gift ideas<\/h1>\n<p>This list is empty/);
    expect(page("Ana", null)).toContain("<h1>Saved by Ana</h1>");
    expect(page(null, null)).toContain("<h1>A shared list</h1>");
  });

  test("runs no Liquid a sharer typed", () => {
    expect(page("{{ shop.secret }}", null)).toContain("<h1>Saved by &#123;&#123; shop.secret &#125;&#125;</h1>");
  });
});
