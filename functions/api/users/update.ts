import { User } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("PATCH /api/users/{id}", ({ actor, params, body }) => User.update(actor, params.id, body));
