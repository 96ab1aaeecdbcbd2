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

-- PostgreSQL 18 names a NOT NULL constraint after its column when the column is made and keeps that
-- name through a rename, so a database migrated here would differ from a new one; earlier versions
-- have no such constraint to rename.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'OverageSetting_requestedCapCents_not_null') THEN
    ALTER TABLE "OverageSetting" RENAME CONSTRAINT "OverageSetting_requestedCapCents_not_null" TO "OverageSetting_capCents_not_null";
  END IF;
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'OverageBlock_chargedAt_not_null') THEN
    ALTER TABLE "OverageBlock" RENAME CONSTRAINT "OverageBlock_chargedAt_not_null" TO "OverageBlock_attemptedAt_not_null";
  END IF;
END $$;
