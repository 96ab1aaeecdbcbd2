import { ServiceError } from "~/lib/errors";
import { assertNotBeingRedacted } from "~/services/compliance/pending-redactions.server";
import { assertChannelEntitled, type Plan } from "~/services/plans";
import { requireInstalledShopPlan } from "~/services/installs/shop-state.server";
import { countBudgetUnits } from "~/lib/metrics.server";
import { annotateRequest, payingPlatformPoints } from "~/lib/request-context.server";
import { consumeMonthlyRequest } from "~/services/usage/monthly-budget.server";
import {
  assertCustomerWithinRate,
  assertStaffWithinRate,
  customerPlatformPoints,
} from "~/services/usage/rate-limits.server";
import { fireItemSavedAfterAnswer } from "~/services/flow/item-saved.server";
import { markSavedByAfterAnswer } from "~/services/saved-by/saved-by-flush.server";
import {
  applyItemChanges,
  type ChangeOutcome,
  type ItemChange,
} from "~/services/saved-items/apply-item-changes.server";
import { ANONYMOUS_VIEWER, type Caller } from "~/services/caller";
import { identityKey } from "~/services/saved-items/handles.server";
import { isSaved, listSaved } from "~/services/saved-items/reads.server";
import { createShareLink, readSharedList, revokeShareLink } from "~/services/saved-items/sharing.server";
import { createList, deleteList, listLists, renameList } from "~/services/saved-items/named-lists.server";
import { OPERATIONS, type OperationInput, type OperationName, type OperationOutput } from "./operations";
import type { BatchOperation, BatchResult, SaveOperationResult } from "~/services/saved-items/schemas";

/**
 * The one entry point behind every channel: the customer's rate (and the staff member's, at the
 * point of sale), the plan and channel gates, the monthly budget, then the operation itself, paying the platform with the customer's points.
 * Inputs arrive already validated at the edge. What a retry can fix (RATE_LIMITED,
 * PLATFORM_UPSTREAM_ERROR, INTERNAL_ERROR, or a batch none of whose operations succeeded for such
 * a reason) is given back to the budget, and so is a share token that opens no list; the platform
 * points its attempts spent are the customer's all the same, so failing requests cannot drain the
 * shop's bucket for free.
 */
export async function dispatchSavedItems<Op extends OperationName>(
  caller: Caller,
  operation: Op,
  input: OperationInput<Op>,
): Promise<OperationOutput[Op]> {
  annotateRequest({ shop: caller.shop, channel: caller.channel, operation });
  if (caller.customerGid === ANONYMOUS_VIEWER) return readAnonymously(caller, operation, input);
  if (caller.staff) await assertStaffWithinRate(caller.shop, caller.staff);
  await assertCustomerWithinRate(caller.shop, caller.customerGid);
  const plan = await requireInstalledShopPlan(caller.shop);
  assertChannelEntitled(plan, caller.channel);
  if (operation === "batch") assertBatchAllowed(plan, (input as OperationInput<"batch">).operations);
  if (OPERATIONS[operation].writes) await assertNotBeingRedacted(caller.shop, caller.customerGid);
  const charge = await consumeMonthlyRequest(caller.shop, plan, caller.customerGid, caller.staff);
  const handler = HANDLERS[operation] as (caller: Caller, input: OperationInput<Op>) => Promise<OperationOutput[Op]>;
  let output: OperationOutput[Op];
  try {
    output = await payingPlatformPoints(customerPlatformPoints(caller.shop, caller.customerGid), () =>
      handler(caller, input),
    );
  } catch (error) {
    if (!(error instanceof ServiceError) || error.retryable || isUnknownShareToken(operation, error)) charge.refund();
    else countBudgetUnits(plan.key);
    throw error;
  }
  if (operation === "batch" && wholeBatchRetryable(output as BatchResult)) charge.refund();
  else countBudgetUnits(plan.key);
  announceSaves(caller, operation, input, output);
  return output;
}

/**
 * A logged-out viewer's read of a shared list: never counted against the budget or a customer's
 * share, so nobody without an account can spend the shop's month or reach an overage charge. What
 * bounds its cost is the shared-page cache and the link's lookup rate (sharing.server), and the
 * viewer address's rate before it (the shared page); none of them is a pool every logged-out
 * viewer of the shop has in common.
 */
async function readAnonymously<Op extends OperationName>(
  caller: Caller,
  operation: Op,
  input: OperationInput<Op>,
): Promise<OperationOutput[Op]> {
  if (operation !== "shared-list") throw new ServiceError("AUTH_REQUIRED", "Log in to use saved items");
  assertChannelEntitled(await requireInstalledShopPlan(caller.shop), caller.channel);
  return (await readSharedList(caller, input as OperationInput<"shared-list">)) as OperationOutput[Op];
}

/**
 * What follows a write once the caller has its answer: Flow's Item saved for the saves
 * (flow/item-saved) and the saved-by counts' marks for every change (saved-by/).
 */
function announceSaves<Op extends OperationName>(
  caller: Caller,
  operation: Op,
  input: OperationInput<Op>,
  output: OperationOutput[Op],
): void {
  if (operation === "save" || operation === "toggle" || operation === "remove") {
    const item = input as OperationInput<"save">;
    markSavedByAfterAnswer(caller, [{ ...item, saved: (output as SaveOperationResult).state === "active" }]);
    if (operation !== "remove") fireItemSavedAfterAnswer(caller, [{ item, result: output as SaveOperationResult }]);
  } else if (operation === "batch") {
    const { results } = output as BatchResult;
    const operations = (input as OperationInput<"batch">).operations;
    markSavedByAfterAnswer(
      caller,
      operations.flatMap((item, index) => {
        const entry = results[index];
        return entry?.ok ? [{ ...item, saved: entry.result.state === "active" }] : [];
      }),
    );
    fireItemSavedAfterAnswer(
      caller,
      operations.map((item, index) => {
        const entry = results[index];
        return { item, result: entry?.ok ? entry.result : undefined };
      }),
    );
  }
}

/** A share token that opens no list costs the shop nothing, so guessing tokens cannot spend its budget. */
function isUnknownShareToken(operation: OperationName, error: ServiceError): boolean {
  return operation === "shared-list" && error.code === "NOT_FOUND";
}

function wholeBatchRetryable(result: BatchResult): boolean {
  return result.succeeded === 0 && result.results.every((entry) => !entry.ok && entry.retryable);
}

const HANDLERS: { [Op in OperationName]: (caller: Caller, input: OperationInput<Op>) => Promise<OperationOutput[Op]> } =
  {
    save: (caller, input) =>
      applyOne(caller, { action: "save", item: input, source: input.source, snapshot: input.snapshot }),
    toggle: (caller, input) =>
      applyOne(caller, { action: "toggle", item: input, source: input.source, snapshot: input.snapshot }),
    remove: (caller, input) => applyOne(caller, { action: "remove", item: input }),
    batch: (caller, input) => runBatch(caller, input.operations),
    "is-saved": isSaved,
    list: listSaved,
    "share-create": createShareLink,
    "share-revoke": revokeShareLink,
    "shared-list": readSharedList,
    lists: listLists,
    "create-list": createList,
    "rename-list": renameList,
    "delete-list": deleteList,
  };

async function applyOne(caller: Caller, change: ItemChange): Promise<SaveOperationResult> {
  const [outcome] = await applyItemChanges(caller, [change]);
  if (!outcome!.ok) throw outcome!.error;
  return outcome!.result;
}

function assertBatchAllowed(plan: Plan, operations: BatchOperation[]): void {
  if (plan.maxBatchOperations === 0) {
    throw new ServiceError(
      "PLAN_LIMIT_REACHED",
      `Batch is not available on the ${plan.name} plan; upgrade to Starter or above`,
    );
  }
  if (operations.length > plan.maxBatchOperations) {
    throw new ServiceError(
      "PLAN_LIMIT_REACHED",
      `The ${plan.name} plan allows at most ${plan.maxBatchOperations} operations per batch; this batch has ${operations.length}`,
    );
  }
  const seen = new Set<string>();
  const conflicts = new Set<string>();
  for (const operation of operations) {
    const key = identityKey(operation);
    if (seen.has(key)) conflicts.add(key);
    seen.add(key);
  }
  if (conflicts.size > 0) {
    throw new ServiceError(
      "BATCH_CONFLICT",
      `Operations share an identity key (context|entityType|entityGid): ${[...conflicts].join(", ")}`,
    );
  }
}

async function runBatch(caller: Caller, operations: BatchOperation[]): Promise<BatchResult> {
  const outcomes = await applyItemChanges(
    caller,
    operations.map((operation) => ({
      action: operation.action,
      item: operation,
      source: operation.source,
      snapshot: operation.snapshot,
    })),
  );
  const results = outcomes.map(toBatchResult);
  const succeeded = results.filter((result) => result.ok).length;
  return { total: operations.length, succeeded, failed: operations.length - succeeded, results };
}

function toBatchResult(outcome: ChangeOutcome): BatchResult["results"][number] {
  if (outcome.ok) return { ok: true, result: outcome.result };
  const { code, message, retryable } = outcome.error;
  return { ok: false, code, message, retryable };
}
