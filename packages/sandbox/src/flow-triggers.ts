import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { repoRoot } from "./config";

/**
 * The handles of the app's Flow triggers, read from their extensions' TOMLs: what the platform
 * deploys, so a trigger added under extensions/ is one the webhook script turns on too.
 */
export function flowTriggerHandles(extensionsDir = path.join(repoRoot, "extensions")): string[] {
  return readdirSync(extensionsDir)
    .map((dir) => path.join(extensionsDir, dir, "shopify.extension.toml"))
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      const toml = parse(readFileSync(file, "utf8")) as { extensions?: { type?: string; handle?: string }[] };
      return (toml.extensions ?? []).filter((entry) => entry.type === "flow_trigger").map((entry) => entry.handle!);
    })
    .sort();
}
