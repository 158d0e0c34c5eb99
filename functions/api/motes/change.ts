import { byMethod } from "@sealwork/core/http/api";
import { handler as remove } from "./destroy";
import { handler as edit } from "./edit";

/** POST /api/motes/{id} with `_method` PATCH or DELETE (spec 001 §7) reaches one handler per path: this picks the route's own. */
export const handler = byMethod({ PATCH: edit, DELETE: remove });
