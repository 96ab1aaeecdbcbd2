-- The overage velocity guard (docs/decisions/0018-overage-on-app-pricing.md, issue #31 A6): billing
-- paused when a shop's blocks spike, until the merchant resumes.
ALTER TABLE "OverageSetting" ADD COLUMN "pausedAt" TIMESTAMP(3);
ALTER TABLE "OverageSetting" ADD COLUMN "resumedAt" TIMESTAMP(3);
