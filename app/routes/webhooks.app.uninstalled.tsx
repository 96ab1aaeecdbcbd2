import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import { recordShopUninstalled, UninstalledPayloadSchema } from "~/services/installs/shop-records.server";

/** app/uninstalled: the shop marked uninstalled and its sessions dropped. */
export const action = parsedWebhookAction("app/uninstalled", UninstalledPayloadSchema, recordShopUninstalled);
