import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";

export const handler = api(moteRoutes, "DELETE /api/motes/{id}", ({ actor, params }) => Mote.remove(actor, params.id));
