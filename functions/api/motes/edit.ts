import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";
import "@sealwork/core/mote/errors";

export const handler = api(moteRoutes, "PATCH /api/motes/{id}", ({ actor, params, body }) => Mote.edit(actor, params.id, body), { invalid: "mote_invalid" });
