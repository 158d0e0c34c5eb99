import { Attachment } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/{id}/attachments/{aid}/complete", ({ actor, params, body }) =>
  Attachment.complete(actor, params.id, params.aid, body),
);
