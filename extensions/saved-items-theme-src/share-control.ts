import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { find, listen, readStored, writeStored } from "./dom";
import { callProxy } from "./proxy-client";

/** The share links this device made, per list, with the customer they are the customer's: {customer, links}. */
interface StoredLinks {
  customer: string;
  links: Record<string, string | undefined>;
}

const key = (config: BlockConfig) => `saved-items:share:${config.shop}`;

function storedLinks(config: BlockConfig): Record<string, string | undefined> {
  const stored = readStored<StoredLinks>(key(config));
  // Another customer's links are never shown, nor kept.
  return stored && stored.customer === config.customer ? stored.links : {};
}

/** Keeps (or, with undefined, forgets) the link of a list: a deleted list's link stops working. */
export function keepLink(config: BlockConfig, context: string, link: string | undefined): void {
  const links = storedLinks(config);
  links[context] = link;
  writeStored(key(config), { customer: config.customer, links });
}

/**
 * The Saved items block's share control (its "Let shoppers share" setting): make a link to the
 * list shown, copy it, and stop sharing it, through share-create and share-revoke. The service
 * keeps only a link's hash, so the link shows on the device that made it; the other devices offer
 * a new link (which replaces any earlier one) and "Stop sharing", whose answer says whether it was
 * shared. Returns the function that shows another list's state (`has`: a list the shopper has;
 * the control hides for one they do not). Each click acts on the list shown when it was clicked.
 */
export function initShareControl(config: BlockConfig): (context: string, has: boolean) => void {
  const box = find(config.root, ".si-share")!;
  const state = find(box, ".si-share-state")!;
  const linkRow = find(box, ".si-share-link")!;
  const input = find<HTMLInputElement>(linkRow, "input")!;
  const make = find(box, ".si-share-make")!;
  let context = config.context;
  // What a click did is said beside the control (its own live region), not under a long list.
  const said = find(box, ".si-share-said")!;
  /** Says what a click on `clicked`'s control did, unless another list is shown by then. */
  const say = (clicked: string, name: string) => {
    if (clicked !== context) return false;
    render();
    said.textContent = config.text(name);
    return true;
  };

  function render() {
    const link = storedLinks(config)[context];
    input.value = link || "";
    linkRow.hidden = !link;
    state.textContent = config.text(link ? "shared" : "share-how");
    make.textContent = config.text(link ? "share-again" : "share");
  }

  listen(make, "click", async () => {
    const clicked = context;
    try {
      const { token } = await callProxy<{ token: string }>(config, "share-create", { context: clicked });
      // The shared page under this storefront's own address, locale and proxy path.
      keepLink(config, clicked, location.origin + config.api.replace(/api\/$/, "shared/") + token);
      if (say(clicked, "share-made")) input.select();
    } catch (error) {
      say(clicked, (error as SavedItemsError).code === "NOT_FOUND" ? "share-empty" : "error");
    }
  });
  listen(find(box, ".si-share-copy")!, "click", () => {
    input.select();
    // The selected link is the fallback where the Clipboard API is missing or refused.
    const clipboard = navigator.clipboard;
    const clicked = context;
    (clipboard ? clipboard.writeText(input.value) : Promise.reject()).then(
      () => say(clicked, "copied"),
      () => say(clicked, "copy-yourself"),
    );
  });
  listen(find(box, ".si-share-revoke")!, "click", async () => {
    const clicked = context;
    try {
      const { revoked } = await callProxy<{ revoked: boolean }>(config, "share-revoke", { context: clicked });
      keepLink(config, clicked, undefined);
      say(clicked, revoked ? "unshared" : "not-shared");
    } catch (error) {
      say(clicked, (error as SavedItemsError).code === "NOT_FOUND" ? "not-shared" : "error");
    }
  });
  render();
  return (next, has) => {
    // What was said of the list shown before is not said of this one.
    if (next !== context) said.textContent = "";
    context = next;
    box.hidden = !has;
    render();
  };
}
