import type { ConversationView } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { mayMigrate, versionOneConversations } from "./version-one";

const ME = 7;

function conversation(id: number, fields: Partial<ConversationView> = {}): ConversationView {
  return {
    id,
    title: null,
    author_id: 3,
    recipient_id: ME,
    other_id: 3,
    participants: [
      { user_id: 3, admin: true },
      { user_id: ME, admin: false },
    ],
    multiple: false,
    timestamp: 0,
    last_mote: 0,
    unread: false,
    attachlist: [],
    sealed: null,
    protocol: 1,
    epoch: 0,
    ...fields,
  };
}

describe("the version 1 conversations a renewal would close", () => {
  it("takes those without a log, not signed ones nor pickups, and says which the user may migrate", () => {
    const list = [
      conversation(1),
      conversation(2, { protocol: 2 }),
      conversation(3, { author_id: ME, recipient_id: 0, participants: [{ user_id: ME, admin: true }] }),
      conversation(4, { author_id: ME, recipient_id: 3 }),
      conversation(5, { participants: [{ user_id: 3, admin: true }, { user_id: ME, admin: true }] }),
    ];
    expect(versionOneConversations(list, ME).map((v) => [v.conversation.id, v.mayMigrate])).toEqual([
      [1, false],
      [4, true],
      [5, true],
    ]);
  });

  it("lets the author or an admin migrate, never a pickup", () => {
    expect(mayMigrate(conversation(1), conversation(1).participants, 3)).toBe(true);
    expect(mayMigrate(conversation(1), conversation(1).participants, ME)).toBe(false);
    expect(mayMigrate(conversation(1, { recipient_id: 0 }), conversation(1).participants, 3)).toBe(false);
  });
});
