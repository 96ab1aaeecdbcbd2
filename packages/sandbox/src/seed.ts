import { readFileSync } from "node:fs";
import { z } from "zod";
import { PLAN_KEYS } from "../../../app/services/plans";
import { API_TIERS } from "@saved-items/platform-emulator/cost";
import { SavedItemsSeedSchema } from "./saved-items-seed";

const CustomerSchema = z.object({
  id: z.string().regex(/^gid:\/\/shopify\/Customer\/\d+$/, "must be gid://shopify/Customer/<number>"),
  customerAccountAccessToken: z.string().min(1).optional(),
  storefrontCustomerAccessToken: z.string().min(1).optional(),
});

const SeedSchema = z.object({
  shops: z.array(
    z.object({
      domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be <name>.myshopify.com"),
      plan: z.enum(PLAN_KEYS),
      installed: z.boolean().default(true),
      // The shop's Admin API rate limit in the emulator; standard when absent.
      tier: z.enum(API_TIERS).optional(),
      // The emulator's initial offline token for the shop; generated when absent.
      adminAccessToken: z.string().min(1).optional(),
      storefrontAccessToken: z.string().min(1).optional(),
      customers: z.array(CustomerSchema).default([]),
      // Optional scopes of shopify.app.toml the merchant granted (write_products turns "Saved by N
      // shoppers" on); none when absent, as after a fresh install.
      grantedOptionalScopes: z.array(z.string()).optional(),
      // Generated save_items (and their lists and products) stored straight into the emulator.
      savedItems: SavedItemsSeedSchema.optional(),
    }),
  ),
});

export type Seed = z.infer<typeof SeedSchema>;

export function loadSeed(file: string): Seed {
  const parsed = SeedSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new Error(
      `SANDBOX_SEED ${file} is not a valid seed:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  return parsed.data;
}
