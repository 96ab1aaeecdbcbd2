// What the emulator's process runs before it listens (main.ts --setup): the seed's shops and their
// generated saved items go straight into its memory, so a seed of many thousand items never
// crosses HTTP, and the emulator needs to know nothing of the sandbox's seed format.
import type { EmulatorSetup } from "@saved-items/platform-emulator/types";
import { OVERAGE_METER } from "../../../app/services/plans";
import { seedSavedItems } from "./saved-items-seed";
import { loadSeed } from "./seed";

const setup: EmulatorSetup = (emulator, seedFile) => {
  if (!seedFile) throw new Error("The sandbox's emulator setup takes the seed file as its argument.");
  // The app's Shopify App Pricing configuration, as its Partner Dashboard holds it.
  emulator.setAppPricing({ meters: [OVERAGE_METER] });
  for (const shop of loadSeed(seedFile).shops) {
    const { adminCredentials } = emulator.addShop(shop);
    console.error(`emulator: ${shop.domain} admin credentials ${JSON.stringify(adminCredentials)}`);
    if (shop.savedItems) {
      const { items } = seedSavedItems(emulator, shop.domain, shop.savedItems, new Date());
      console.error(`emulator: ${shop.domain} seeded with ${items.length} saved items`);
    }
  }
};

export default setup;
