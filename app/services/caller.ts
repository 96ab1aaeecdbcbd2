import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import type { PlanChannel } from "~/services/channels";

/** Who is asking, established by a channel's front door before the dispatcher runs. */
export interface Caller {
  shop: string;
  customerGid: string;
  channel: PlanChannel;
  admin: AdminGraphqlClient;
  /**
   * The staff user asking on the customer's behalf (the point-of-sale token's `sub`): any staff
   * member may name any customer, made-up ones included, so the staff member has a rate and a
   * share of the budget of their own too.
   */
  staff?: string;
}

/**
 * Who a logged-out shopper on a page anyone may open (a shared list) is: the dispatcher (app/operations) lets it
 * read shared lists only, and counts none of its reads against the budget.
 * Not a customer GID, so it never matches a customer's data.
 */
export const ANONYMOUS_VIEWER = "anonymous-viewer";
