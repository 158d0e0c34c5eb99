import { User, api } from "@sealwork/core";

export const handler = api("GET /api/users/{id}", ({ caller, params }) => User.view(caller, params.id));
