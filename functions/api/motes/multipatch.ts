import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";
import "@sealwork/core/mote/errors";

export const handler = api(moteRoutes, "PATCH /api/motes/multipatch", ({ actor, body }) => Mote.multi(actor, body), { invalid: "mote_patch_invalid" });
