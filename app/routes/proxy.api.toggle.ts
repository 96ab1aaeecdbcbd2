import { requireProxyCaller } from "~/lib/auth/proxy-caller.server";
import { createOperationRoute } from "~/lib/http/operation-route.server";

const route = createOperationRoute("toggle", requireProxyCaller);
export const loader = route.loader;
export const action = route.action;
