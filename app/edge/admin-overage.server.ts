import { z } from "zod";
import { chooseOverage, resumeOverage } from "~/services/billing/overage-choice.server";
import { MAX_OVERAGE_CAP_USD, type Plan } from "~/services/plans";
import { adminFormAction, type AdminFormRefusal } from "./admin-form.server";
import { parseFormBody } from "./request-input.server";

const OverageActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("overage-off") }),
  z.object({ intent: z.literal("overage-resume") }),
  z.object({
    intent: z.literal("overage-on"),
    capUsd: z.coerce.number().min(1).max(MAX_OVERAGE_CAP_USD).multipleOf(0.01),
  }),
]);

export type OverageActionResult = { ok: true } | AdminFormRefusal;

/** The plans page's overage form, and its paused banner's Resume. */
export function overageAction(shop: string, plan: Plan, request: Request): Promise<OverageActionResult> {
  return adminFormAction(async () => {
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
  });
}
