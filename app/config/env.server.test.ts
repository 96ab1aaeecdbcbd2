// The one configuration, as the process reads it at start: each test parses the environment afresh.
import { afterEach, describe, expect, test, vi } from "vitest";

/** getEnv() of a process whose environment is the test's with `variables` (undefined: unset). */
async function envWith(variables: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  const { getEnv } = await import("./env.server");
  return getEnv();
}

/** The message a process with these variables stops with. */
async function refusal(variables: Record<string, string | undefined>): Promise<string> {
  return envWith(variables).then(
    () => "",
    (error: Error) => error.message,
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("the configuration", () => {
  test("without the app's credentials it stops, naming each one to set and nothing else", async () => {
    const message = await refusal({
      SHOPIFY_API_KEY: undefined,
      SHOPIFY_API_SECRET: undefined,
      SHOPIFY_APP_URL: undefined,
      DIRECT_API_JWT_SECRET: undefined,
    });
    expect(message).toBe(
      [
        "Invalid configuration; set these environment variables:",
        "  - SHOPIFY_API_KEY: set SHOPIFY_API_KEY to the app's client ID",
        "  - SHOPIFY_API_SECRET: set SHOPIFY_API_SECRET to the app's client secret",
        "  - SHOPIFY_APP_URL: set SHOPIFY_APP_URL to the public https URL the app is served from",
        "  - DIRECT_API_JWT_SECRET: set DIRECT_API_JWT_SECRET to a random string of at least 32 characters",
      ].join("\n"),
    );
  });

  test("names the app's and the server's wrong variables together, each with what to set", async () => {
    const message = await refusal({
      REDIS_COMMAND_TIMEOUT_MS: "5",
      SKIP_MIGRATIONS: "yes",
      FLOW_TRIGGERS: "maybe",
      PORT: "http",
    });
    expect(message.split("\n").slice(1)).toEqual([
      "  - SKIP_MIGRATIONS: set SKIP_MIGRATIONS to 1, or leave it unset",
      "  - REDIS_COMMAND_TIMEOUT_MS: set REDIS_COMMAND_TIMEOUT_MS to a whole number from 100 to 30000 (default 1000)",
      "  - FLOW_TRIGGERS: set FLOW_TRIGGERS to on or off (default on)",
      "  - PORT: set PORT to a whole number from 0 to 65535 (default 3000)",
    ]);
  });

  test("an empty variable (NAME= in a .env file) is unset: its default, never 0", async () => {
    const env = await envWith({
      SEARCH_LAG_SECONDS: "",
      RETENTION_SECONDS: " ",
      REDIS_URL: "",
      FLOW_TRIGGERS: "",
      SKIP_MIGRATIONS: "",
      DATABASE_URL: "",
    });
    expect(env).toMatchObject({
      SEARCH_LAG_SECONDS: 60,
      RETENTION_SECONDS: 2_592_000,
      REDIS_URL: undefined,
      FLOW_TRIGGERS: "on",
      SKIP_MIGRATIONS: false,
      DATABASE_URL: "pglite:.data/pglite",
    });
  });

  test("SKIP_MIGRATIONS=1 is read through it", async () => {
    expect((await envWith({ SKIP_MIGRATIONS: "1" })).SKIP_MIGRATIONS).toBe(true);
  });
});
