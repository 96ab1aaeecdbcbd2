import type { InsightsActionResult } from "~/edge/admin-insights.server";
import type { AppTarget } from "./admin";
import { withAdminSession } from "./session-token";

// The library answers bot user agents (Node's fetch is one) with 410 before authenticating.
export const BROWSER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** An Insights page action over HTTP, as its fetcher posts it with App Bridge's session token. */
export async function postInsightsAction(
  target: AppTarget,
  shop: string,
  fields: Record<string, string>,
): Promise<InsightsActionResult> {
  const request = await withAdminSession(
    new Request(new URL("/app/insights?_data=routes/app.insights", target.baseUrl), {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "User-Agent": BROWSER_AGENT },
    }),
    { shop, apiKey: target.apiKey, apiSecret: target.apiSecret },
    "bearer",
  );
  const response = await fetch(request);
  if (!response.ok) throw new Error(`the Insights action answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as InsightsActionResult;
}

/** Starts a refresh or an export and polls it, as the page does, until it is done. */
export async function runInsightsOperation(
  target: AppTarget,
  shop: string,
  intent: "refresh" | "export",
  onProgress: (result: InsightsActionResult & { ok: true }) => void = () => undefined,
): Promise<InsightsActionResult & { ok: true }> {
  let result = await postInsightsAction(target, shop, { intent });
  while (result.ok && !result.done && ["CREATED", "RUNNING"].includes(result.status)) {
    onProgress(result);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    result = await postInsightsAction(target, shop, { intent: `${intent}-progress`, operation: result.operation });
  }
  if (!result.ok) throw new Error(`${intent} failed: ${result.message}`);
  return result;
}
