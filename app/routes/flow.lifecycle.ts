import type { ActionFunctionArgs } from "@remix-run/node";
import { FlowCallbackRefused, requireFlowLifecycleCallback } from "~/edge/front-doors/flow-callback.server";
import { recordFlowTriggerUse } from "~/services/flow/flow-triggers.server";

// Flow's trigger lifecycle callback (extensions/flow-trigger-lifecycle): a merchant enabled or
// disabled the last workflow starting with one of our triggers. Flow refuses to enable the
// workflow unless this answers 2xx promptly.
export const action = async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  try {
    await recordFlowTriggerUse(await requireFlowLifecycleCallback(request));
  } catch (error) {
    if (error instanceof FlowCallbackRefused) return new Response(null, { status: 401 });
    throw error;
  }
  return new Response(null, { status: 204 });
};
