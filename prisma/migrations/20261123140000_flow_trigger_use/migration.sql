-- CreateTable
CREATE TABLE "FlowTriggerUse" (
    "shopDomain" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "reportedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerUse_pkey" PRIMARY KEY ("shopDomain","handle")
);
