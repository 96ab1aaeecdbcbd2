import { describe, expect, expectTypeOf, test } from "vitest";
import type {
  BatchResult as ServiceBatchResult,
  ListResult as ServiceListResult,
  SaveOperationResult as ServiceSaveOperationResult,
} from "~/services/saved-items/schemas";
import type { DirectAccessGrant as ServiceGrant } from "~/services/direct-access/schemas";
import type {
  DeleteListResult as ServiceDeleteListResult,
  ListsResult as ServiceListsResult,
  SavedList as ServiceSavedList,
} from "~/services/saved-items/list-schemas";
import { normaliseAppUrl } from "../../extensions/saved-items-account/src/lib/app-url";
import { listContextFrom } from "../../extensions/saved-items-account/src/lib/constants";
import { errorMessageKey } from "../../extensions/saved-items-account/src/lib/error-messages";
import { SavedItemsError } from "../../extensions/shared/errors";
import { fallbackTitle, itemView } from "../../extensions/saved-items-account/src/lib/snapshot";
import type {
  BatchResult,
  DeleteListResult,
  DirectAccessGrant,
  ListResult,
  ListsResult,
  SavedList,
  SaveOperationResult,
} from "../../extensions/shared/wire";
import { listTitle, withItemRemoved, withList, withoutList } from "../../extensions/saved-items-account/src/lib/lists";

const item = (snapshot?: unknown, entityGid = "gid://shopify/Product/42") => ({
  id: "gid://shopify/Metaobject/1",
  entityType: "product",
  entityGid,
  status: "active",
  ...(snapshot === undefined ? {} : { snapshot }),
});

describe("app URL (SAVED_ITEMS_APP_URL)", () => {
  test.each([
    ["https://saved-items.example", "https://saved-items.example"],
    ["https://saved-items.example/", "https://saved-items.example"],
    [" https://Saved-Items.example/prefix/ ", "https://saved-items.example/prefix"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["http://saved-items.example", null],
    ["https://saved-items.example/?x=1", null],
    ["https://user:pw@saved-items.example", null],
    ["saved-items.example", null],
    ["", null],
    [undefined, null],
  ])("%s → %s", (raw, expected) => {
    expect(normaliseAppUrl(raw)).toBe(expected);
  });
});

describe("list name setting", () => {
  test("trimmed setting, else wishlist", () => {
    expect(listContextFrom({ list_context: " gifts " })).toBe("gifts");
    expect(listContextFrom({ list_context: "  " })).toBe("wishlist");
    expect(listContextFrom({})).toBe("wishlist");
    expect(listContextFrom({ list_context: 5 })).toBe("wishlist");
  });
});

describe("item view from the snapshot", () => {
  test("title, https image and price when the theme stored them", () => {
    expect(itemView(item({ title: " Boots ", image: "https://cdn.example/b.png", price: "€10" }))).toEqual({
      title: "Boots",
      imageUrl: "https://cdn.example/b.png",
      price: "€10",
    });
  });

  test("no snapshot, a non-object one, or unsafe values show nothing", () => {
    expect(itemView(item())).toEqual({ title: null, imageUrl: null, price: null });
    expect(itemView(item("Boots"))).toEqual({ title: null, imageUrl: null, price: null });
    expect(itemView(item({ title: 7, image: "javascript:alert(1)" })).imageUrl).toBeNull();
    expect(itemView(item({ image: "//cdn.example/b.png" })).imageUrl).toBeNull();
    expect(itemView(item({ image: "data:image/png;base64,AAAA" })).imageUrl).toBeNull();
  });

  test("fallback title from the GID", () => {
    expect(fallbackTitle(item())).toBe("Product 42");
    expect(fallbackTitle(item(undefined, "gid://shopify/ProductVariant/7"))).toBe("ProductVariant 7");
    expect(fallbackTitle(item(undefined, "odd"))).toBe("odd");
  });
});

describe("error messages", () => {
  test.each([
    ["CUSTOMER_REQUIRED", false, "error.loggedOut"],
    ["CHANNEL_NOT_ENTITLED", false, "error.unavailable"],
    ["SHOP_NOT_INSTALLED", false, "error.unavailable"],
    ["APP_URL_NOT_CONFIGURED", false, "error.notConfigured"],
    ["PLATFORM_UPSTREAM_ERROR", true, "error.temporary"],
    ["NETWORK_ERROR", true, "error.temporary"],
    ["VALIDATION_ERROR", false, "error.generic"],
  ])("%s → %s", (code, retryable, key) => {
    expect(errorMessageKey(new SavedItemsError(code, "", 400, retryable as boolean))).toBe(key);
  });
});

describe("the clients' wire types", () => {
  test("accept what the service's own types describe (checked by tsc)", () => {
    expectTypeOf<ServiceBatchResult>().toExtend<BatchResult>();
    expectTypeOf<ServiceListResult>().toExtend<ListResult>();
    expectTypeOf<ServiceSaveOperationResult>().toExtend<SaveOperationResult>();
    expectTypeOf<ServiceGrant>().toExtend<DirectAccessGrant>();
    expectTypeOf<ServiceSavedList>().toExtend<SavedList>();
    expectTypeOf<ServiceListsResult>().toExtend<ListsResult>();
    expectTypeOf<ServiceDeleteListResult>().toExtend<DeleteListResult>();
  });
});

describe("the account page's lists", () => {
  const list = (context: string, name: string | null, itemCount = 1) => ({
    context,
    name,
    itemCount,
    createdAt: "2026-07-01T12:00:00Z",
    updatedAt: "2026-07-01T12:00:00Z",
  });

  test("a list is called by its name, the default list as the page, any other by its key", () => {
    expect(listTitle(list("gifts", "Gifts"), "Saved items")).toBe("Gifts");
    expect(listTitle(list("wishlist", null), "Saved items")).toBe("Saved items");
    expect(listTitle(list("list-1", null), "Saved items")).toBe("list-1");
  });

  test("a changed list takes its place, a new one goes first, a deleted one goes, a removal counts down", () => {
    const lists = [list("a", "A"), list("b", "B")];
    expect(withList(lists, list("b", "Bee")).map((entry) => entry.name)).toEqual(["A", "Bee"]);
    expect(withList(lists, list("c", "C")).map((entry) => entry.context)).toEqual(["c", "a", "b"]);
    expect(withoutList(lists, "a").map((entry) => entry.context)).toEqual(["b"]);
    expect(withItemRemoved([list("a", "A", 1)], "a")[0]!.itemCount).toBe(0);
    expect(withItemRemoved([list("a", "A", 0)], "a")[0]!.itemCount).toBe(0);
  });
});
