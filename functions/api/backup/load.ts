import { Backup } from "@sealwork/core/keys";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/backup/load", ({ actor, body }) => Backup.load(actor, body.filename));
