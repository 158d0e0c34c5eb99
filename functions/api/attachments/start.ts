import { Attachment, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/{id}/attachments", ({ caller, params, body }) => Attachment.start(caller, params.id, body));
