import { Backup, api } from "@sealwork/core";

export const handler = api("POST /api/backup/save", ({ caller, body }) => Backup.save(caller, body));
