import { Pickup, api } from "@sealwork/core";

/** What a guest needs to derive the auth key; 404 for unknown, expired, deleted or locked pickups. */
export const handler = api("GET /api/pickup/{lookup}", ({ caller, params }) => Pickup.meta(caller, params.lookup));
