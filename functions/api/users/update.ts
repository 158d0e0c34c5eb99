import { User } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "PATCH /api/users/{id}", ({ actor, params, body }) => User.update(actor, params.id, body));
