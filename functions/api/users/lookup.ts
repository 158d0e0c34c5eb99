import { User } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/users", ({ actor, query }) => User.lookup(actor, query.lookup));
