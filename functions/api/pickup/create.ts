import { Pickup, api } from "@sealwork/core";

export const handler = api("POST /api/pickup", ({ caller, body }) => Pickup.create(caller, body));
