import { Keypair, api } from "@sealwork/core";

export const handler = api("POST /api/keypairs/{id}/recover", ({ caller, params }) => Keypair.recover(caller, params.id));
