import { byMethod } from "@sealwork/core/http/api";
import { handler as remove } from "./delete";
import { handler as update } from "./update";

/** POST /api/pages/{id} with `_method` PATCH or DELETE (spec 001 §7) reaches one handler per path: this picks the route's own. */
export const handler = byMethod({ PATCH: update, DELETE: remove });
