import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";
import "@sealwork/core/mote/errors";

export const handler = api(moteRoutes, "POST /api/motes", ({ actor, body }) => Mote.create(actor, body), { invalid: "mote_invalid" });
