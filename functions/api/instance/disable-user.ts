import { User } from "@sealwork/core/user";
import { instanceRoutes } from "@sealwork/contracts/instance";
import { api } from "@sealwork/core/http/api";

export const handler = api(instanceRoutes, "POST /api/instance/users/{id}/disable", ({ actor, params }) => User.setDisabled(actor, params.id, true));
