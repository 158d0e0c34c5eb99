import { User } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/instance/users", async ({ actor, query }) => ({ users: await User.list(actor, query.singleuser) }));
