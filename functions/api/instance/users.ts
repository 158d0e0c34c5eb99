import { User } from "@sealwork/core/user";
import { instanceRoutes } from "@sealwork/contracts/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api(instanceRoutes, "GET /api/instance/users", async ({ actor, query }) => ({ users: await User.list(actor, query.singleuser) }));
