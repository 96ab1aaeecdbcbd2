import { requireCustomerAccountCaller } from "~/lib/auth/direct-caller.server";
import { createOperationRoute } from "~/lib/http/operation-route.server";

const route = createOperationRoute("is-saved", requireCustomerAccountCaller, { cors: true });
export const loader = route.loader;
export const action = route.action;
