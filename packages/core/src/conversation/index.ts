export * as Conversation from "./conversation";
export { Attachment } from "./attachments";
export { GUEST_NAME } from "./views";
export type { AttachmentItem, ConversationItem, MoteItem, ParticipantItem } from "./entities";
