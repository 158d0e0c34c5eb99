import { User, api } from "@sealwork/core";

export const handler = api("PATCH /api/users/{id}", ({ caller, params, body }) => User.update(caller, params.id, body));
