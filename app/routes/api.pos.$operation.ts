import { createChannelRoute } from "~/edge/operation-route.server";

// Separate exports (not a destructuring) so Remix can drop the server-only import from the client build.
const route = createChannelRoute("point-of-sale");
export const loader = route.loader;
export const action = route.action;
