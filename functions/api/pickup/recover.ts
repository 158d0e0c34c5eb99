import { Pickup } from "@sealwork/core/pickup";
import { pickupRoutes } from "@sealwork/contracts/pickups";
import { api } from "@sealwork/core/http/api";

/** The guest's auth key for a guest token and the wrapped conversation key; wrong ones are counted. */
export const handler = api(pickupRoutes, "POST /api/pickup/recover/{lookup}", ({ actor, params, body }) => Pickup.recover(actor, params.lookup, body.auth));
