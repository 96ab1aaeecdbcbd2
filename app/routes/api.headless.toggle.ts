import { requireHeadlessCaller } from "~/lib/auth/direct-caller.server";
import { createOperationRoute } from "~/lib/http/operation-route.server";

const route = createOperationRoute("toggle", requireHeadlessCaller);
export const loader = route.loader;
export const action = route.action;
