import { z } from "zod";
import { storeLowStockThreshold } from "~/services/installs/shop-state.server";
import { adminFormAction, type AdminFormRefusal } from "./admin-form.server";
import { parseFormBody } from "./request-input.server";

/** Stock counts are whole numbers; a threshold past a million units is a typo, not a policy. */
export const MAX_LOW_STOCK_THRESHOLD = 1_000_000;

/** The Setup page's form: a whole number of units, or empty to turn Saved item low in stock off. */
const LowStockFormSchema = z.object({
  threshold: z.union([
    z.literal("").transform(() => null),
    z
      .string()
      .regex(/^\d{1,7}$/, "must be a whole number of units")
      .transform(Number)
      .pipe(
        z.number().max(MAX_LOW_STOCK_THRESHOLD, `must be at most ${MAX_LOW_STOCK_THRESHOLD.toLocaleString("en-US")}`),
      ),
  ]),
});

export type LowStockActionResult = { ok: true; threshold: number | null } | AdminFormRefusal;

/** Stores the merchant's low-stock threshold from the Setup page. */
export function lowStockAction(shop: string, request: Request): Promise<LowStockActionResult> {
  return adminFormAction(async () => {
    const { threshold } = await parseFormBody(request, LowStockFormSchema);
    await storeLowStockThreshold(shop, threshold);
    return { ok: true, threshold };
  });
}
