import { readFileSync } from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

export const EXTENSION_DIR = path.join(repoRoot, "extensions/saved-items-account");

/**
 * The platform's translate over an extension's en.default.json: {{placeholders}}, and one/other by
 * count. A key the locale file lacks throws, so every state a test renders proves its strings exist.
 */
export function translatorFor(extensionDir: string): (key: string, options?: Record<string, unknown>) => string {
  const strings = JSON.parse(readFileSync(path.join(extensionDir, "locales/en.default.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return (key, options = {}) => {
    let entry = key
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
    if (entry && typeof entry === "object")
      entry = (entry as Record<string, string>)[options.count === 1 ? "one" : "other"];
    if (typeof entry !== "string") throw new Error(`no translation for ${key}`);
    return entry.replace(/{{(\w+)}}/g, (_, name: string) => String(options[name]));
  };
}

export const translate = translatorFor(EXTENSION_DIR);

export interface FakePlatform {
  /** Messages shown with shopify.toast.show. */
  toasts: string[];
  /** Targets registered with shopify.extend, as the platform's runtime receives them. */
  targets: Map<string, () => unknown>;
}

/** The `shopify` global of a customer-account UI extension, as far as the extension uses it. */
export function installFakePlatform(settings: Record<string, unknown> = {}): FakePlatform {
  const platform: FakePlatform = { toasts: [], targets: new Map() };
  vi.stubGlobal("shopify", {
    extend: (target: string, run: () => unknown) => platform.targets.set(target, run),
    i18n: {
      translate,
      formatDate: (date: Date, options: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" }).format(date),
    },
    settings: { value: settings },
    sessionToken: { get: async () => "session-token" },
    toast: { show: async (message: string) => void platform.toasts.push(message) },
  });
  return platform;
}
