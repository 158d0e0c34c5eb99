import { Pickup, api } from "@sealwork/core";

/** DELETE /api/conversations/{id}: a pickup, by its author, with its messages and files. */
export const handler = api("DELETE /api/conversations/{id}", ({ caller, params }) => Pickup.remove(caller, params.id));
