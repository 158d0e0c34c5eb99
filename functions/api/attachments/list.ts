import { Attachment } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/conversations/{id}/attachments", ({ actor, params }) => Attachment.list(actor, params.id));
