import { Attachment, api } from "@sealwork/core";

export const handler = api("GET /api/conversations/{id}/attachments", ({ caller, params }) => Attachment.list(caller, params.id));
