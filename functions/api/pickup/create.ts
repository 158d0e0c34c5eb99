import { Pickup } from "@sealwork/core/pickup";
import { pickupRoutes } from "@sealwork/contracts/pickups";
import { api } from "@sealwork/core/http/api";

export const handler = api(pickupRoutes, "POST /api/pickup", ({ actor, body }) => Pickup.create(actor, body));
