import { User } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/users/{id}", ({ actor, params }) => User.view(actor, params.id));
