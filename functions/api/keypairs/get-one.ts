import { Keypair } from "@sealwork/core/keys";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/keypairs/{id}", ({ actor, params }) => Keypair.publicKey(actor, params.id));
