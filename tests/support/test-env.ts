import { parseEnv, type Env } from "~/config/env.server";

/** The configuration every test process runs with; the app reads it through getEnv(). */
export const TEST_ENV = {
  SHOPIFY_API_KEY: "test-api-key",
  SHOPIFY_API_SECRET: "test-api-secret",
  SHOPIFY_APP_URL: "https://saved-items.test",
  DIRECT_API_JWT_SECRET: "test-direct-api-jwt-secret-0123456789abcdef",
  // Their requests run after answering, where counts and faults of unrelated tests would see
  // them; the tests of tests/flow (and tests/sharing/share-links.test.ts) turn them on.
  FLOW_TRIGGERS: "off",
};

/** The app's configuration as a process with TEST_ENV and these variables would parse it. */
export const testEnv = (variables: Record<string, string | undefined> = {}): Env =>
  parseEnv({ ...TEST_ENV, ...variables });
