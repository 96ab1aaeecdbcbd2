// docs/deploy.md, docs/merchants.md and the README repeat facts the code owns (the plan table, the
// variables, the scopes, the webhooks, the extensions); these tests keep the copies equal to their
// sources.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, test } from "vitest";
import { ENV_VARIABLES, EnvShape } from "~/config/env.server";
import type { PlanChannel } from "~/services/channels";
import { PLANS, PLAN_KEYS } from "~/services/plans";
import { cliDotEnvFileName, normaliseScopes } from "../../tools/deploy/cli-config-schema";
import { repoRoot } from "@saved-items/sandbox/config";

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const guide = read("docs/deploy.md");
const envExample = read(".env.example");
const readme = read("README.md");
const merchants = read("docs/merchants.md");
const appToml = parse(read("shopify.app.toml")) as {
  access_scopes: { scopes: string; optional_scopes?: string[] };
  webhooks: { subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[] };
};

/** Every topic the app subscribes to, with the path it is delivered to. */
const webhookPaths = new Map(
  appToml.webhooks.subscriptions.flatMap((subscription) =>
    [...(subscription.topics ?? []), ...(subscription.compliance_topics ?? [])].map(
      (topic) => [topic, subscription.uri] as const,
    ),
  ),
);

/** The directories under extensions/ that the CLI deploys (those with a TOML). */
const extensionDirectories = readdirSync(path.join(repoRoot, "extensions")).filter((dir) =>
  statSync(path.join(repoRoot, "extensions", dir, "shopify.extension.toml"), { throwIfNoEntry: false })?.isFile(),
);

/** The cells of a document's table rows whose first cell is a `code` value, keyed by that value. */
function tableRows(firstHeader: string, document = guide): Map<string, string[]> {
  // Prettier pads table cells, so the header is found by its first cell's text alone.
  const start = document.search(new RegExp(`^\\| ${firstHeader} +\\|`, "m"));
  expect(start, `a table headed "${firstHeader}"`).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  for (const line of document.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.set(cells[0]!.replace(/`/g, ""), cells.slice(1));
  }
  return rows;
}

/** Read by `shopify app deploy` from its dotenv file (section 2), not by the server. */
const CLI_VARIABLE = "SAVED_ITEMS_APP_URL";

/** Variables of .env.example, set (`KEY=`) or offered commented out (`# KEY=`). */
function envExampleVariables(): Map<string, string | undefined> {
  const variables = new Map<string, string | undefined>();
  for (const line of envExample.split("\n")) {
    const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    const offered = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (set) variables.set(set[1]!, set[2]);
    else if (offered) variables.set(offered[1]!, undefined);
  }
  return variables;
}

describe("docs/deploy.md", () => {
  test("lists the plans with the handles, budgets, batch sizes and channels of app/services/plans.ts", () => {
    const channelNames: Record<string, PlanChannel> = {
      "Online Store": "online-store",
      "Customer account": "customer-account",
      Headless: "headless",
      "Point of Sale": "point-of-sale",
    };
    const rows = tableRows("Plan handle");
    expect([...rows.keys()]).toEqual([...PLAN_KEYS]);
    for (const key of PLAN_KEYS) {
      const [name, requests, batch, channels] = rows.get(key)!;
      const plan = PLANS[key];
      expect(name).toBe(plan.name);
      expect(Number(requests!.replace(/,/g, ""))).toBe(plan.monthlyRequests);
      expect(batch === "not included" ? 0 : Number(/up to (\d+) operations/.exec(batch!)?.[1])).toBe(
        plan.maxBatchOperations,
      );
      expect(channels!.split(", ").map((channel) => channelNames[channel])).toEqual(plan.channels);
    }
  });

  test("documents exactly the variables of the app's schema, and the one the CLI reads", () => {
    expect([...tableRows("Variable").keys()].sort()).toEqual([...ENV_VARIABLES, CLI_VARIABLE].sort());
  });

  test("says required (yes) of exactly the variables the schema requires", () => {
    const required = ENV_VARIABLES.filter((name) => !EnvShape.shape[name].safeParse(undefined).success);
    const documented = [...tableRows("Variable")].filter(([, [when]]) => when === "yes").map(([name]) => name);
    expect(documented.sort()).toEqual(required.sort());
  });

  test(".env.example offers every variable of the table but those only the sandbox sets", () => {
    const operators = [...tableRows("Variable")].filter(([, [when]]) => !when!.startsWith("never"));
    expect([...envExampleVariables().keys()].sort()).toEqual(operators.map(([name]) => name).sort());
  });

  test("gives the scopes of shopify.app.toml", () => {
    const scopes = normaliseScopes(appToml.access_scopes.scopes);
    expect(tableRows("Key").get("access_scopes.scopes")![0]!.replace(/`/g, "")).toBe(scopes);
  });

  test("names every webhook topic of shopify.app.toml", () => {
    for (const topic of webhookPaths.keys()) expect(guide, topic).toContain(`\`${topic}\``);
  });

  test("keeps secrets out of .env.example", () => {
    for (const secret of ["SHOPIFY_API_SECRET", "DIRECT_API_JWT_SECRET", "METRICS_TOKEN"]) {
      expect(envExampleVariables().get(secret), secret).toBe("");
    }
  });
});

describe("docs/deploy.md, deploying the customer-account extension", () => {
  test("puts SAVED_ITEMS_APP_URL in the dotenv file the CLI reads for the configuration it deploys", () => {
    const commands = [...guide.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((block) => block[1]).join("\n");
    const configs = [...commands.matchAll(/shopify app deploy(?: --config[ =](\S+))?/g)].map((match) => match[1]);
    const envFiles = [...guide.matchAll(/SAVED_ITEMS_APP_URL=\S*?`? +in +`(\.env[\w.-]*)`/g)].map((match) => match[1]);
    expect(configs.length, "a `shopify app deploy` command").toBeGreaterThan(0);
    expect(envFiles.length, "a file given SAVED_ITEMS_APP_URL").toBeGreaterThan(0);
    expect(new Set(envFiles)).toEqual(new Set(configs.map(cliDotEnvFileName)));
  });
});

describe("README.md", () => {
  test("lists exactly the scopes of shopify.app.toml, required and optional, each with a reason", () => {
    const rows = tableRows("Scope", readme);
    const optional = appToml.access_scopes.optional_scopes ?? [];
    const all = normaliseScopes([appToml.access_scopes.scopes, ...optional].join(","));
    expect([...rows.keys()].join(",")).toBe(all);
    for (const [scope, [why]] of rows) {
      expect(why, scope).not.toBe("");
      // A merchant grants an optional scope only when asked: the table must say which those are.
      expect(why!.startsWith("optional"), scope).toBe(optional.includes(scope));
    }
  });

  test("lists exactly the webhook topics of shopify.app.toml, each with a reason", () => {
    const rows = tableRows("Webhook topic", readme);
    expect([...rows.keys()].sort()).toEqual([...webhookPaths.keys()].sort());
    for (const [topic, [why]] of rows) expect(why, topic).not.toBe("");
  });

  test("lists exactly the extensions under extensions/, each with a reason", () => {
    const rows = tableRows("Extension", readme);
    expect([...rows.keys()].sort()).toEqual([...extensionDirectories].sort());
    for (const [extension, [type, why]] of rows) expect([type, why], extension).not.toContain("");
  });
});

describe("docs/merchants.md", () => {
  test("gives every webhook topic of shopify.app.toml with the path it is delivered to", () => {
    const rows = tableRows("Topic", merchants);
    expect(new Map([...rows].map(([topic, [uri]]) => [topic, uri!.replace(/`/g, "")]))).toEqual(webhookPaths);
  });
});
