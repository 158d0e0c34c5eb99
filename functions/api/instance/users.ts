import { Role } from "@sealwork/core/group/roles";
import { User } from "@sealwork/core/user";
import { instanceRoutes } from "@sealwork/contracts/instance";
import { api } from "@sealwork/core/http/api";

/** The user list (administrators); with roles=1 also every role and who holds it (spec 001 §7). */
export const handler = api(instanceRoutes, "GET /api/instance/users", async ({ actor, query }) => ({
  users: await User.list(actor, query.singleuser),
  ...(query.roles === "1" ? await Role.all(actor) : {}),
}));
