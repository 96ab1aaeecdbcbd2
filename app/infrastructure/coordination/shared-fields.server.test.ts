import { afterEach, expect, test, vi } from "vitest";
import { claimOnce, readSharedField, updateSharedField } from "~/infrastructure/coordination/shared-fields.server";

afterEach(() => vi.restoreAllMocks());

const DAY = 24 * 60 * 60 * 1000;

test("an id is claimed once, also from the next window, and again only after that", async () => {
  const now = vi.spyOn(Date, "now").mockReturnValue(10 * DAY + 1);
  expect(await claimOnce("webhook:a", "id-1", DAY)).toBe(true);
  expect(await claimOnce("webhook:a", "id-1", DAY)).toBe(false);
  expect(await claimOnce("webhook:b", "id-1", DAY)).toBe(true); // scopes are apart
  now.mockReturnValue(11 * DAY + 1);
  expect(await claimOnce("webhook:a", "id-1", DAY)).toBe(false);
  now.mockReturnValue(12 * DAY + 1);
  expect(await claimOnce("webhook:a", "id-1", DAY)).toBe(true);
});

test("a field is replaced by change(current) and deleted by undefined", async () => {
  await updateSharedField("k", "f", (current) => `${current ?? ""}x`, DAY);
  await updateSharedField("k", "f", (current) => `${current ?? ""}y`, DAY);
  expect(await readSharedField("k", "f")).toBe("xy");
  await updateSharedField("k", "f", () => undefined, DAY);
  expect(await readSharedField("k", "f")).toBeUndefined();
});
