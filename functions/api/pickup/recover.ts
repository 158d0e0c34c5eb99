import { Pickup, api } from "@sealwork/core";

/** The guest's auth key for a guest token and the wrapped conversation key; wrong ones are counted. */
export const handler = api("POST /api/pickup/recover/{lookup}", ({ caller, params, body }) => Pickup.recover(caller, params.lookup, body.auth));
