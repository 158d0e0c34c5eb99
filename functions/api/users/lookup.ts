import { Login } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/users", ({ actor, query }) => Login.lookup(actor, query.lookup));
