import { Keypair, api } from "@sealwork/core";

export const handler = api("GET /api/keypairs/target", ({ caller, query }) => Keypair.targets(caller, query.type, query.id));
