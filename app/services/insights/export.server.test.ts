import { describe, expect, test } from "vitest";
import { csvRow } from "~/services/insights/export.server";
import { toSaveItemLine } from "~/services/records/save-item-lines";

const node = (fields: Record<string, string>) => ({
  id: "gid://shopify/Metaobject/1",
  fields: Object.entries(fields).map(([key, value]) => ({ key, value })),
});
const item = {
  customer_id: "gid://shopify/Customer/7",
  context: "wishlist",
  entity_type: "product",
  entity_gid: "gid://shopify/Product/1",
  status: "active",
  saved_at: "2026-11-01T10:00:00.000Z",
};

describe("export rows", () => {
  test("a plain item is one comma-separated line", () => {
    expect(csvRow(toSaveItemLine(node(item))!)).toBe(
      "gid://shopify/Customer/7,wishlist,product,gid://shopify/Product/1,2026-11-01T10:00:00.000Z\r\n",
    );
  });

  test("quotes, commas and line breaks are quoted; a cell a spreadsheet would run as a formula is defused", () => {
    expect(csvRow(toSaveItemLine(node({ ...item, context: 'gifts, "big" ones' }))!)).toContain(
      ',"gifts, ""big"" ones",',
    );
    expect(csvRow(toSaveItemLine(node({ ...item, context: "=HYPERLINK(1)" }))!)).toContain(",'=HYPERLINK(1),");
    expect(csvRow(toSaveItemLine(node({ ...item, context: "a\nb" }))!)).toContain(',"a\nb",');
  });

  test("a line without customer, entity or date is not an item the app wrote, and is skipped", () => {
    expect(toSaveItemLine(node({ ...item, customer_id: "" }))).toBeUndefined();
    expect(toSaveItemLine({ id: "x" })).toBeUndefined();
    expect(toSaveItemLine(null)).toBeUndefined();
  });
});
