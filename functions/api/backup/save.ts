import { Backup } from "@sealwork/core/keys";
import { keypairRoutes } from "@sealwork/contracts/keypairs";
import { api } from "@sealwork/core/http/api";

export const handler = api(keypairRoutes, "POST /api/backup/save", ({ actor, body }) => Backup.save(actor, body));
