import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { Mote } from "@sealwork/core/mote";

export const handler = api(moteRoutes, "GET /api/pages/best", ({ actor, query }) => Mote.bestPages(actor, query));
