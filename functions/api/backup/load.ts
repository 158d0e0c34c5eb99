import { Backup, api } from "@sealwork/core";

export const handler = api("POST /api/backup/load", ({ caller, body }) => Backup.load(caller, body.filename));
