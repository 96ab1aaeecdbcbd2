import { readFileSync } from "node:fs";
import { z } from "zod";
import { MAX_OVERAGE_CAP_USD, PLAN_KEYS } from "../../../app/services/plans";
import { API_TIERS } from "@saved-items/platform-emulator/cost";
import { SavedItemsSeedSchema, SaversSeedSchema } from "./saved-items-seed";

const CustomerSchema = z.object({
  id: z.string().regex(/^gid:\/\/shopify\/Customer\/\d+$/, "must be gid://shopify/Customer/<number>"),
  customerAccountAccessToken: z.string().min(1).optional(),
  storefrontCustomerAccessToken: z.string().min(1).optional(),
  // Lists the customer has when the sandbox starts, made through the app's own operations
  // (create-list for a name, save, share-create), so they are exactly what a shopper would make.
  lists: z
    .array(
      z.strictObject({
        context: z.string().min(1),
        // Made with create-list under this name; absent for the default list (wishlist).
        name: z.string().min(1).optional(),
        items: z.array(z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/, "must be gid://shopify/Product/<number>")),
        // Shared with share-create, under this display name; the banner prints the link.
        shareAs: z.string().min(1).optional(),
      }),
    )
    .default([]),
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
      // Shoppers who saved catalogue products (each in a wishlist of its own), with the products'
      // "Saved by N" published when write_products is granted.
      savers: SaversSeedSchema.optional(),
      // Requests of the plan's monthly budget already used this month, to open the admin in a
      // budget state (80%, spent, overage) without sending them.
      usedThisMonth: z.number().int().min(0).optional(),
      // Overage on, with this monthly cap in USD, as the Plans page's "Turn overage on" records it.
      overageCapUsd: z.number().positive().max(MAX_OVERAGE_CAP_USD).optional(),
    }),
  ),
});

export type Seed = z.infer<typeof SeedSchema>;
/** A seed as written in a file, its defaults not yet filled. */
export type SeedInput = z.input<typeof SeedSchema>;

export function loadSeed(file: string): Seed {
  const parsed = SeedSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new Error(
      `SANDBOX_SEED ${file} is not a valid seed:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  return parsed.data;
}
