import { Attachment } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/{id}/attachments", ({ actor, params, body }) => Attachment.start(actor, params.id, body));
