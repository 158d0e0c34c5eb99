import { Attachment, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/{id}/attachments/{aid}/complete", ({ caller, params, body }) =>
  Attachment.complete(caller, params.id, params.aid, body),
);
