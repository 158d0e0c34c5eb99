import { User, api } from "@sealwork/core";

export const handler = api("GET /api/instance/users", async ({ query }) => ({ users: await User.list(query.singleuser) }));
