import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { MoteComments } from "@sealwork/core/mote";
import "@sealwork/core/mote/errors";

export const handler = api(moteRoutes, "POST /api/motes/{id}/comment/reseal", ({ actor, params, body }) => MoteComments.resealComments(actor, params.id, body), { invalid: "mote_invalid" });
