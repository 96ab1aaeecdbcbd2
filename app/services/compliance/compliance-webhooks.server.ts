import { writeLog } from "~/lib/json-log";
import { z } from "zod";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import {
  collectCustomerRecords,
  customerGidFromId,
  type SavedItemExport,
  type SavedListExport,
} from "./customer-records.server";
import { redactCustomer, type RedactionProgress } from "./pending-redactions.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { redactShopRecords, type ShopRedaction } from "~/services/installs/shop-records.server";

/** The three mandatory compliance topics, as shopify.app.toml declares them (compliance_topics). */
export const COMPLIANCE_TOPICS = ["customers/data_request", "customers/redact", "shop/redact"] as const;
/** The same, as the library reports them (topicForStorage). */
export type ComplianceTopic = "CUSTOMERS_DATA_REQUEST" | "CUSTOMERS_REDACT" | "SHOP_REDACT";

/** Each topic reads its own fields, and refuses a payload without them (handleComplianceWebhook). */
export const CompliancePayloadSchema = z.unknown();

const CustomerPayloadSchema = z.object({
  customer: z.object({ id: z.union([z.number(), z.string()]) }),
  data_request: z.object({ id: z.union([z.number(), z.string()]) }).nullish(),
});

export interface CustomerDataRecord {
  shop: string;
  customerId: string;
  dataRequestId: string | null;
  assembledAt: string;
  /** False when the app has no access to the shop (uninstalled): nothing could be read. */
  appInstalled: boolean;
  lists: SavedListExport[];
  items: SavedItemExport[];
}

export type ComplianceOutcome =
  | { topic: "CUSTOMERS_DATA_REQUEST"; record: CustomerDataRecord }
  | ({ topic: "CUSTOMERS_REDACT"; customerId: string } & RedactionProgress)
  | { topic: "SHOP_REDACT"; result: ShopRedaction };

/** One compliance webhook, by topic. Platform failures throw, so the platform redelivers. */
export async function handleComplianceWebhook(
  shop: string,
  _webhookId: string,
  payload: unknown,
  topic: ComplianceTopic,
): Promise<ComplianceOutcome> {
  switch (topic) {
    case "CUSTOMERS_DATA_REQUEST":
      return { topic, record: await assembleCustomerData(shop, parseCustomerPayload(payload)) };
    case "CUSTOMERS_REDACT": {
      const { customerGid } = parseCustomerPayload(payload);
      return { topic, customerId: customerGid, ...(await redactCustomer(shop, customerGid)) };
    }
    case "SHOP_REDACT":
      return { topic, result: await redactShopRecords(shop) };
  }
}

function parseCustomerPayload(payload: unknown): { customerGid: string; dataRequestId: string | null } {
  const parsed = CustomerPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new ServiceError("VALIDATION_ERROR", "The webhook payload has no customer.id");
  const dataRequestId = parsed.data.data_request?.id;
  return {
    customerGid: customerGidFromId(parsed.data.customer.id),
    dataRequestId: dataRequestId === undefined ? null : String(dataRequestId),
  };
}

/**
 * customers/data_request: every save_list and save_item of the customer (removed saves too), as one
 * record. It is written to the app log as a single JSON line tagged for the operator, who sends it
 * to the merchant; the merchant can also see these entries under Content > Metaobjects.
 */
async function assembleCustomerData(
  shop: string,
  { customerGid, dataRequestId }: { customerGid: string; dataRequestId: string | null },
): Promise<CustomerDataRecord> {
  const admin = await loadOfflineAdmin(shop);
  const records = admin ? await collectCustomerRecords(admin, customerGid) : { lists: [], items: [] };
  const record: CustomerDataRecord = {
    shop,
    customerId: customerGid,
    dataRequestId,
    assembledAt: clock.now().toISOString(),
    appInstalled: Boolean(admin),
    ...records,
  };
  writeLog("info", "[compliance] customers/data_request", { record });
  return record;
}
