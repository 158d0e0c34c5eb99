import { GroupKeys } from "@sealwork/core/group/keys";
import { worker } from "@sealwork/core/http/worker";

/** A user's account key moved (POST /api/keypairs in place of a key they held): their groups' wraps are for the old one. */
export const handler = worker("key-moved", async (job) => GroupKeys.keyMoved(job.userId));
