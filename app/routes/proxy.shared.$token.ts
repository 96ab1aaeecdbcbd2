import type { LoaderFunctionArgs } from "@remix-run/node";
import { sharedPageResponse } from "~/edge/shared-page/shared-page.server";

/** The read-only page a share link opens, rendered by the platform inside the shop's theme (Liquid). */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  sharedPageResponse(request, params.token, context);
