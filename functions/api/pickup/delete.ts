import { Pickup } from "@sealwork/core/pickup";
import { pickupRoutes } from "@sealwork/contracts/pickups";
import { api } from "@sealwork/core/http/api";

/** DELETE /api/conversations/{id}: a pickup, by its author, with its messages and files. */
export const handler = api(pickupRoutes, "DELETE /api/conversations/{id}", ({ actor, params }) => Pickup.remove(actor, params.id));
