import { z } from "zod";
import { isServiceError } from "~/lib/errors";
import { chooseOverage, resumeOverage } from "~/services/billing/overage-choice.server";
import { MAX_OVERAGE_CAP_USD, type Plan } from "~/services/plans";
import { parseFormBody } from "./request-input.server";

const OverageActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("overage-off") }),
  z.object({ intent: z.literal("overage-resume") }),
  z.object({
    intent: z.literal("overage-on"),
    capUsd: z.coerce.number().min(1).max(MAX_OVERAGE_CAP_USD).multipleOf(0.01),
  }),
]);

export type OverageActionResult = { ok: true } | { ok: false; code: string; message: string };

/**
 * The plans page's overage form, and its paused banner's Resume. A ServiceError becomes a result the page shows; anything else
 * (the library's re-authentication Responses) is rethrown.
 */
export async function overageAction(shop: string, plan: Plan, request: Request): Promise<OverageActionResult> {
  try {
    const input = await parseFormBody(request, OverageActionSchema);
    if (input.intent === "overage-resume") await resumeOverage(shop);
    else {
      await chooseOverage(
        shop,
        plan,
        input.intent === "overage-off"
          ? { enabled: false }
          : { enabled: true, capCents: Math.round(input.capUsd * 100) },
      );
    }
    return { ok: true };
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}
