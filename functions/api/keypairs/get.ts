import { Keypair } from "@sealwork/core/keys";
import { keypairRoutes } from "@sealwork/contracts/keypairs";
import { api } from "@sealwork/core/http/api";

/** The actor's key state, or with fetch_only=1&uid= the short answer about another user's key. */
export const handler = api(keypairRoutes, "GET /api/keypairs", ({ actor, query }) =>
  query.fetch_only === "1" && query.uid !== undefined ? Keypair.fetchOnly(actor, query.uid) : Keypair.state(actor),
);
