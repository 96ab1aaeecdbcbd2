-- Overage as billing events of Shopify App Pricing (docs/decisions/0018-overage-on-app-pricing.md):
-- the cap is the app's own, and a block is sent once its row says so.
ALTER TABLE "OverageSetting" RENAME COLUMN "requestedCapCents" TO "capCents";
ALTER TABLE "OverageSetting" DROP COLUMN "cappedPeriod";
ALTER TABLE "OverageSetting" ADD COLUMN "shopGid" TEXT;

-- Blocks charged before as usage records were sent: they keep counting as paid.
ALTER TABLE "OverageBlock" ADD COLUMN "idempotencyKey" TEXT;
UPDATE "OverageBlock" SET "idempotencyKey" = "usageRecordGid";
ALTER TABLE "OverageBlock" ALTER COLUMN "idempotencyKey" SET NOT NULL;
ALTER TABLE "OverageBlock" DROP COLUMN "usageRecordGid";
ALTER TABLE "OverageBlock" RENAME COLUMN "chargedAt" TO "attemptedAt";
-- Set by the app from its clock, which the idempotency window is measured on.
ALTER TABLE "OverageBlock" ALTER COLUMN "attemptedAt" DROP DEFAULT;
ALTER TABLE "OverageBlock" ADD COLUMN "sentAt" TIMESTAMP(3);
UPDATE "OverageBlock" SET "sentAt" = "attemptedAt";
