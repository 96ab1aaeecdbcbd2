import { readStored, writeStored } from "./dom";
import { handleOf, type ShopperItem } from "./shopper-item";

/** What a logged-out shopper chose on this device, kept until it is merged after login. */
export const GUEST_KEY = "saved-items:guest";

export const guestSaves = (): ShopperItem[] => readStored<ShopperItem[]>(GUEST_KEY) || [];

const keepGuestSaves = (saves: ShopperItem[]): void => writeStored(GUEST_KEY, saves.length ? saves : undefined);

const sameItem = (a: ShopperItem, b: ShopperItem) => a.context === b.context && a.entityGid === b.entityGid;

/** `item` as the save button or a heart made it: its identity, source and snapshot, nothing else. */
export function setGuestSave(item: ShopperItem, on: boolean): void {
  const others = guestSaves().filter((save) => !sameItem(save, item));
  keepGuestSaves(on ? [...others, item] : others);
}

export const withoutGuestSaves = (merged: ShopperItem[]): void =>
  keepGuestSaves(guestSaves().filter((save) => !merged.some((done) => sameItem(done, save))));

/** The guest's saves of a list, with their snapshots: entityGid → item. */
export function guestRows(context: string): Record<string, ShopperItem> {
  const saved: Record<string, ShopperItem> = {};
  for (const save of guestSaves()) if (save.context === context) saved[save.entityGid] = save;
  return saved;
}

/** The guest's saved state of a list: entityGid → product handle. */
export function guestSavedMap(context: string): Record<string, string> {
  const saved: Record<string, string> = {};
  const rows = guestRows(context);
  for (const gid in rows) saved[gid] = handleOf(rows[gid]!.snapshot);
  return saved;
}
