-- CreateTable
CREATE TABLE "ListRetention" (
    "shopDomain" TEXT NOT NULL,
    "cursor" TEXT,
    "runAfter" TIMESTAMP(3) NOT NULL,
    "claimToken" TEXT,

    CONSTRAINT "ListRetention_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateIndex
CREATE INDEX "ListRetention_runAfter_idx" ON "ListRetention"("runAfter");
