// The Saved items block's list manager in Chromium on the sandbox storefront (issue #42 item 3): it
// acts only on the list it shows. Switching lists closes an open rename or delete panel, each panel
// acts on the list it named when it opened, a failed delete leaves nothing armed, the share control
// keeps a link for the list it was made for, and the manager opens on a list the shopper has. Each
// shopper's lists are the seed's, made at start through the app's own operations.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { loadSeed, type SeedInput } from "@saved-items/sandbox/seed";
import { browserMissing, browserTestTitle, openSandboxBrowser, refusal } from "../support/chromium";

const DEMO = "demo.myshopify.com";
const SHIRT = "gid://shopify/Product/8101";
const TOTE = "gid://shopify/Product/8102";
const BEANIE = "gid://shopify/Product/8103";
const ALPHA_AND_BETA = [
  { context: "alpha", name: "Alpha", items: [SHIRT] },
  { context: "beta", name: "Beta", items: [TOTE] },
];
/** Each test's shopper: the two lists, one customer per test so none depends on another's deletes. */
const SHOPPERS = { deletes: "1002", renames: "1003", fails: "1004", shares: "1005", travels: "1006" };

/** The example seed's demo shop (1010 with "Gift ideas" and "Kitchen"), and the shoppers above, below. */
function writeSeed(directory: string): string {
  const demo = loadSeed(SANDBOX_DEFAULTS.SANDBOX_SEED).shops.find((shop) => shop.domain === DEMO)!;
  const customer = (id: string, lists: { context: string; name?: string; items: string[] }[] = []) => ({
    id: `gid://shopify/Customer/${id}`,
    lists,
  });
  const seed: SeedInput = {
    shops: [
      {
        ...demo,
        customers: [
          ...demo.customers.filter((entry) => entry.id.endsWith("/1010")),
          ...Object.values(SHOPPERS).map((id) => customer(id, ALPHA_AND_BETA)),
          // No list at all.
          customer("1007"),
          // Only the default list (saved to, never named).
          customer("1008", [{ context: "wishlist", items: [BEANIE] }]),
          // The default list, and a newer named one holding more.
          customer("1009", [
            { context: "wishlist", items: [BEANIE] },
            { context: "gifts", name: "Gifts", items: [SHIRT, TOTE] },
          ]),
        ],
      },
    ],
  };
  const file = path.join(directory, "seed.json");
  writeFileSync(file, JSON.stringify(seed));
  return file;
}

describe.skipIf(browserMissing)(
  browserTestTitle("the list manager acts only on the list it shows, in Chromium"),
  () => {
    let storefront: Awaited<ReturnType<typeof openSandboxBrowser>> | undefined;
    let page: Page;
    let seedDirectory: string | undefined;

    beforeAll(async () => {
      seedDirectory = mkdtempSync(path.join(tmpdir(), "saved-items-list-manager-"));
      storefront = await openSandboxBrowser({ SANDBOX_SEED: writeSeed(seedDirectory) });
      ({ page } = storefront);
    }, 300_000);

    afterAll(async () => {
      await storefront?.close();
      if (seedDirectory) rmSync(seedDirectory, { recursive: true, force: true });
    }, 30_000);

    const block = () => page.locator("[data-si=list]");
    const select = () => page.getByRole("combobox", { name: "List" });
    const options = () => select().locator("option").allTextContents();
    const shownOption = () => select().locator("option:checked").textContent();
    const titles = () => block().locator(".si-items .si-title").allTextContents();
    /** What the manager said under its controls. */
    const managerSaid = () => block().locator(".si-lists-said").textContent();
    const confirmBox = () => block().locator(".si-confirm");
    const form = () => block().locator(".si-list-form");
    const button = (name: string) => block().getByRole("button", { name, exact: true });

    async function ready() {
      await page.locator("[data-si]:not([data-si-ready])").first().waitFor({ state: "detached" });
    }

    /** Logs `customer` in on the saved-items page with the list manager on, as the issue reproduces it. */
    async function manage(customer: string) {
      await page.goto(`/account/login?customer=${customer}&return_url=/pages/saved-items%3Fs.manage_lists=true`);
      await ready();
    }

    /** Switches the picker as a shopper does (focus on it), and waits for the list's items. */
    async function switchTo(context: string, items: string[]) {
      await select().focus();
      await select().selectOption(context);
      await expect.poll(titles).toEqual(items);
    }

    /** The bodies of the list writes the page sends from now on: "delete-list {"context":"beta"}". */
    function recordWrites(): string[] {
      const writes: string[] = [];
      page.on("request", (request) => {
        const operation = /\/apps\/saved-items\/api\/(\w+-list|share-\w+)$/.exec(request.url())?.[1];
        if (operation) writes.push(`${operation} ${request.postData()}`);
      });
      return writes;
    }

    /** The logged-in shopper's lists, as /lists answers: "Alpha (1)". */
    const lists = async (): Promise<string[]> =>
      (await page.evaluate(async () => (await fetch("/apps/saved-items/api/lists")).json())).data.lists.map(
        (list: { name: string | null; context: string; itemCount: number }) =>
          `${list.name ?? list.context} (${list.itemCount})`,
      );

    test("delete armed on Alpha, then the picker switched to Beta: the panel closes; Beta's delete names Beta and deletes only Beta", async () => {
      await manage(SHOPPERS.deletes);
      const writes = recordWrites();
      await switchTo("alpha", ["Linen Shirt"]);
      await button("Delete list").click();
      await expect
        .poll(() => confirmBox().locator("p").textContent())
        .toBe("Delete “Alpha” and everything saved in it?");

      await switchTo("beta", ["Canvas Tote"]);
      expect(await confirmBox().isHidden()).toBe(true);
      expect(await button("Delete list").getAttribute("aria-expanded")).toBe("false");
      // The shopper is still on the picker: closing the panel took no focus from it.
      expect(await select().evaluate((element) => element === document.activeElement)).toBe(true);

      await button("Delete list").click();
      expect(await confirmBox().locator("p").textContent()).toBe("Delete “Beta” and everything saved in it?");
      await button("Delete").click();
      await expect.poll(managerSaid).toBe("Your lists are updated.");
      expect(writes).toEqual(['delete-list {"context":"beta"}']);
      expect(await options()).toEqual(["Alpha (1)"]);
      await expect.poll(titles).toEqual(["Linen Shirt"]);
      await expect.poll(lists).toEqual(["Alpha (1)"]);
    });

    test("rename armed on Alpha, then the picker switched to Beta: the form closes; a rename renames the list it opened on", async () => {
      await manage(SHOPPERS.renames);
      const writes = recordWrites();
      await switchTo("alpha", ["Linen Shirt"]);
      await button("Rename").click();
      // The form names the list it renames.
      expect(await page.getByRole("textbox", { name: "New name for “Alpha”" }).inputValue()).toBe("Alpha");
      await page.getByRole("textbox", { name: "New name for “Alpha”" }).fill("Alpha renamed");

      await switchTo("beta", ["Canvas Tote"]);
      expect(await form().isHidden()).toBe(true);
      expect(await button("Rename").getAttribute("aria-expanded")).toBe("false");

      await button("Rename").click();
      expect(await page.getByRole("textbox", { name: "New name for “Beta”" }).inputValue()).toBe("Beta");
      await page.getByRole("textbox", { name: "New name for “Beta”" }).fill("Beta renamed");
      await button("Save").click();
      await expect.poll(options).toEqual(["Beta renamed (1)", "Alpha (1)"]);
      expect(writes).toEqual(['rename-list {"name":"Beta renamed","context":"beta"}']);
      expect(await shownOption()).toBe("Beta renamed (1)");
      await expect.poll(lists).toEqual(["Beta renamed (1)", "Alpha (1)"]);
    });

    test("a failed delete leaves nothing armed: the panel closes, says so, and a switch and Delete again ask about the list shown", async () => {
      await manage(SHOPPERS.fails);
      const writes = recordWrites();
      await switchTo("alpha", ["Linen Shirt"]);
      await page.route("**/apps/saved-items/api/delete-list", (route) =>
        route.fulfill(refusal(500, "INTERNAL_ERROR", "Something broke", false)),
      );
      await button("Delete list").click();
      await button("Delete").click();
      await expect.poll(managerSaid).toBe("“Alpha” couldn't be deleted. Please try again.");
      await page.unroute("**/apps/saved-items/api/delete-list");
      expect(await confirmBox().isHidden()).toBe(true);
      expect(await button("Delete list").getAttribute("aria-expanded")).toBe("false");
      expect(await button("Delete list").evaluate((element) => element === document.activeElement)).toBe(true);

      await switchTo("beta", ["Canvas Tote"]);
      expect(await confirmBox().isHidden()).toBe(true);
      await button("Delete list").click();
      expect(await confirmBox().locator("p").textContent()).toBe("Delete “Beta” and everything saved in it?");
      await button("Cancel").click();
      expect(writes).toEqual(['delete-list {"context":"alpha"}']);
      expect(await lists()).toEqual(["Beta (1)", "Alpha (1)"]);
    });

    test("a share link made while the shopper switched lists is kept for the list it was made for, and said there only", async () => {
      await manage(SHOPPERS.shares);
      const writes = recordWrites();
      await switchTo("alpha", ["Linen Shirt"]);
      // The answer is held until the shopper has moved on to Beta.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/apps/saved-items/api/share-create", async (route: Route) => {
        await held;
        await route.continue();
      });
      await button("Share list").click();
      await switchTo("beta", ["Canvas Tote"]);
      const answered = page.waitForResponse("**/apps/saved-items/api/share-create");
      release();
      await answered;
      await page.unroute("**/apps/saved-items/api/share-create");
      const shareBox = block().locator(".si-share");
      // Beta was never shared: no link, no "Link made".
      await expect.poll(() => shareBox.locator(".si-share-said").textContent()).toBe("");
      expect(await shareBox.locator(".si-share-link").isHidden()).toBe(true);
      expect(await shareBox.locator(".si-share-state").textContent()).toBe(
        "Make a link anyone can open to see this list. A new link replaces any earlier one.",
      );
      // Alpha's link is Alpha's.
      await switchTo("alpha", ["Linen Shirt"]);
      await expect.poll(() => shareBox.locator(".si-share-link input").inputValue()).toMatch(/\/shared\/[\w-]{43}$/);
      expect(writes).toEqual(['share-create {"context":"alpha"}']);
    });

    test("back and forward with a panel open: the page comes back with nothing armed, or with a panel naming the list shown", async () => {
      await manage(SHOPPERS.travels);
      const writes = recordWrites();
      await switchTo("alpha", ["Linen Shirt"]);
      await button("Delete list").click();
      await page.getByRole("link", { name: "All products" }).click();
      await page.waitForURL("**/collections/all");
      await page.goBack();
      await ready();
      const checkArmed = async () => {
        if (await confirmBox().isHidden()) return;
        const shown = (await shownOption())!.replace(/ \(\d+\)$/, "");
        expect(await confirmBox().locator("p").textContent()).toBe(`Delete “${shown}” and everything saved in it?`);
      };
      await checkArmed();
      await page.goForward();
      await page.goBack();
      await ready();
      await checkArmed();
      // Whatever came back, a switch closes it, and Delete then asks about the list switched to.
      await switchTo("beta", ["Canvas Tote"]);
      expect(await confirmBox().isHidden()).toBe(true);
      await button("Delete list").click();
      await button("Delete").click();
      await expect.poll(managerSaid).toBe("Your lists are updated.");
      expect(writes).toEqual(['delete-list {"context":"beta"}']);
      await expect.poll(lists).toEqual(["Alpha (1)"]);
    });

    test("opens on a list the shopper has: 1010's newest list with items, never an empty default list that does not exist", async () => {
      await manage("1010");
      expect(await options()).toEqual(["Kitchen (1)", "Gift ideas (3)"]);
      expect(await shownOption()).toBe("Kitchen (1)");
      expect(await block().getAttribute("data-state")).toBe("ready");
      expect(await titles()).toEqual(["Ceramic Mug"]);
      for (const name of ["Rename", "Delete list", "Share list"])
        expect(await button(name).isVisible(), name).toBe(true);
      await switchTo("gift-ideas", ["Wool Beanie", "Canvas Tote", "Leather Wallet"]);
    });

    test("opens on the default list when the shopper has it, beside newer named lists", async () => {
      await manage("1009");
      expect(await options()).toEqual(["Gifts (2)", "Default list (1)"]);
      expect(await shownOption()).toBe("Default list (1)");
      expect(await titles()).toEqual(["Wool Beanie"]);
      await manage("1008");
      expect(await options()).toEqual(["Default list (1)"]);
      expect(await titles()).toEqual(["Wool Beanie"]);
      for (const name of ["Rename", "Delete list", "Share list"])
        expect(await button(name).isVisible(), name).toBe(true);
    });

    test("a shopper with no list sees the empty default list, with New list only: nothing to rename, delete or share", async () => {
      await manage("1007");
      expect(await options()).toEqual(["Default list (0)"]);
      expect(await block().getAttribute("data-state")).toBe("empty");
      for (const name of ["Rename", "Delete list", "Share list"])
        expect(await button(name).isHidden(), name).toBe(true);
      expect(await button("New list").isVisible()).toBe(true);
      // The first list made is shown, and can be renamed, deleted and shared.
      await button("New list").click();
      await page.getByRole("textbox", { name: "List name" }).fill("Birthday");
      await button("Save").click();
      await expect.poll(options).toEqual(["Birthday (0)"]);
      for (const name of ["Rename", "Delete list", "Share list"])
        expect(await button(name).isVisible(), name).toBe(true);
      // Deleting it leaves the empty default list again, with nothing to act on.
      await button("Delete list").click();
      await button("Delete").click();
      await expect.poll(options).toEqual(["Default list (0)"]);
      for (const name of ["Rename", "Delete list", "Share list"])
        expect(await button(name).isHidden(), name).toBe(true);
    });
  },
);
