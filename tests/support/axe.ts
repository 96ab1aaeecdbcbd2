// axe-core in a page of Chromium, against WCAG 2.1 AA, the rules the platform's review applies: the
// admin pages' test and the screenshot test read the same violations the same way.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** One line per violation and node, so a failure says what to fix without opening a report. */
const describeViolations = (violations: AxeResults["violations"]) =>
  violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(" ")}`,
    ),
  );

/**
 * The page's WCAG 2.1 AA violations, one line per node; none is []. With `include` (a selector),
 * only in what it matches: the app's own part of a page the theme around it renders.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(
    ({ tags, include }) =>
      (window as unknown as { axe: typeof import("axe-core") }).axe.run(include ? { include: [include] } : document, {
        runOnly: { type: "tag", values: tags },
        // Only the violations are read: collecting the passes' nodes too would take most of the run.
        resultTypes: ["violations"],
      }),
    { tags: WCAG_21_AA, include },
  );
  return describeViolations(results.violations);
}
