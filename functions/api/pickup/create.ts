import { Pickup } from "@sealwork/core/pickup";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/pickup", ({ actor, body }) => Pickup.create(actor, body));
