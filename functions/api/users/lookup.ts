import { User, api } from "@sealwork/core";

export const handler = api("GET /api/users", ({ caller, query }) => User.lookup(caller, query.lookup));
