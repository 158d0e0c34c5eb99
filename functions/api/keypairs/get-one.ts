import { Keypair } from "@sealwork/core/keys";
import { keypairRoutes } from "@sealwork/contracts/keypairs";
import { api } from "@sealwork/core/http/api";

export const handler = api(keypairRoutes, "GET /api/keypairs/{id}", ({ actor, params }) => Keypair.publicKey(actor, params.id));
