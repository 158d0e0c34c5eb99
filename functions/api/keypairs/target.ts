import { GroupTargets } from "@sealwork/core/group/targets";
import { Keypair } from "@sealwork/core/keys";
import { keypairRoutes } from "@sealwork/contracts/keypairs";
import { api } from "@sealwork/core/http/api";

/** type=user: the user's current key; type=group: every member's, with their identity (members of the group only). */
export const handler = api(keypairRoutes, "GET /api/keypairs/target", ({ actor, query }) =>
  query.type === "group" ? GroupTargets.of(actor, query.id) : Keypair.targets(actor, query.id),
);
