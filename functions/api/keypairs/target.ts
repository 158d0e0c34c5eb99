import { Keypair } from "@sealwork/core/keys";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/keypairs/target", ({ actor, query }) => Keypair.targets(actor, query.type, query.id));
