import { User } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "GET /api/users/{id}", ({ actor, params }) => User.view(actor, params.id));
