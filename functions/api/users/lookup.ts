import { Login } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "GET /api/users", ({ actor, query }) => Login.lookup(actor, query.lookup));
