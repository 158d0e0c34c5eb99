import { Keypair, api } from "@sealwork/core";

export const handler = api("GET /api/keypairs/{id}", ({ caller, params }) => Keypair.publicKey(caller, params.id));
