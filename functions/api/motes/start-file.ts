import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";

export const handler = api(moteRoutes, "POST /api/motes/files", ({ actor, body }) => Mote.startFile(actor, body));
