import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import type { Channel } from "~/services/plans";

/** Who is asking, established by a channel's front door before the dispatcher runs. */
export interface Caller {
  shop: string;
  customerGid: string;
  channel: Channel;
  admin: AdminGraphqlClient;
}
