import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../../..");

/** Sandbox-only defaults; a real deployment sets its own and never runs this entry point. */
export const SANDBOX_DEFAULTS = {
  PORT: "3000",
  SHOPIFY_API_KEY: "sandbox-api-key",
  SHOPIFY_API_SECRET: "sandbox-api-secret",
  DIRECT_API_JWT_SECRET: "sandbox-only-direct-api-jwt-secret-do-not-deploy",
  SANDBOX_SEED: path.join(import.meta.dirname, "../seed.example.json"),
  DATABASE_URL: "pglite:memory",
};

export function applySandboxDefaults(): void {
  for (const [key, value] of Object.entries(SANDBOX_DEFAULTS)) process.env[key] ||= value;
  process.env.SHOPIFY_APP_URL ||= `http://localhost:${process.env.PORT}`;
}
