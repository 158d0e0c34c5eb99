import { Keypair } from "@sealwork/core/keys";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/keypairs", ({ actor, body }) => Keypair.register(actor, body));
