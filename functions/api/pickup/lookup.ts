import { Pickup } from "@sealwork/core/pickup";
import { pickupRoutes } from "@sealwork/contracts/pickups";
import { api } from "@sealwork/core/http/api";

/** What a guest needs to derive the auth key; 404 for unknown, expired, deleted or locked pickups. */
export const handler = api(pickupRoutes, "GET /api/pickup/{lookup}", ({ actor, params }) => Pickup.meta(actor, params.lookup));
