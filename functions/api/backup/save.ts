import { Backup } from "@sealwork/core/keys";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/backup/save", ({ actor, body }) => Backup.save(actor, body));
