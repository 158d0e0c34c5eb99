import type { ConversationView, ParticipantView } from "@sealwork/contracts";

/**
 * Whether `uid` may move a version 1 conversation to a signed membership log: its author or an
 * admin of it (docs/protocol.md §14.8, "Migration"). Pickups keep version 1 (no log for them).
 */
export function mayMigrate(meta: Pick<ConversationView, "author_id" | "recipient_id">, participants: readonly ParticipantView[], uid: number): boolean {
  if (meta.recipient_id === 0) return false;
  return meta.author_id === uid || participants.some((p) => p.user_id === uid && p.admin);
}

/** A version 1 conversation of the user's list, and whether they may migrate it themselves. */
export interface VersionOneConversation {
  conversation: ConversationView;
  mayMigrate: boolean;
}

/**
 * The user's conversations without a membership log (protocol 1, pickups aside) as the list shows
 * them: a renewal of their key closes these to them, since their copy of each key is sealed for
 * the key they hold now and a version 1 conversation has no epoch to renew (docs/protocol.md
 * §14.13, "Version 1 conversations and a renewal"). The list's `protocol` is the server's word;
 * it only decides what to warn about.
 */
export function versionOneConversations(conversations: readonly ConversationView[], uid: number): VersionOneConversation[] {
  return conversations.filter((c) => c.protocol === 1 && c.recipient_id !== 0).map((conversation) => ({ conversation, mayMigrate: mayMigrate(conversation, conversation.participants, uid) }));
}
