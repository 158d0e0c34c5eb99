import { Keypair, api } from "@sealwork/core";

export const handler = api("POST /api/keypairs", ({ caller, body }) => Keypair.register(caller, body));
