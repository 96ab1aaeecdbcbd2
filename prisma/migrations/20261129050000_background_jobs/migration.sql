-- One runner for the background jobs (docs/decisions/0028-background-jobs-on-one-runner.md): each
-- job's schedule, lease and failures.
CREATE TABLE "BackgroundJob" (
    "name" TEXT NOT NULL,
    "runAfter" TIMESTAMP(3) NOT NULL,
    "leaseToken" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastStartedAt" TIMESTAMP(3),
    "lastSucceededAt" TIMESTAMP(3),

    CONSTRAINT "BackgroundJob_pkey" PRIMARY KEY ("name")
);
