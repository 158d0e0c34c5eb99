import { Pickup } from "@sealwork/core/pickup";
import { api } from "@sealwork/core/http/api";

/** What a guest needs to derive the auth key; 404 for unknown, expired, deleted or locked pickups. */
export const handler = api("GET /api/pickup/{lookup}", ({ actor, params }) => Pickup.meta(actor, params.lookup));
