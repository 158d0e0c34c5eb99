import { Keypair } from "@sealwork/core/keys";
import { keypairRoutes } from "@sealwork/contracts/keypairs";
import { api } from "@sealwork/core/http/api";

export const handler = api(keypairRoutes, "GET /api/keypairs/target", ({ actor, query }) => Keypair.targets(actor, query.type, query.id));
