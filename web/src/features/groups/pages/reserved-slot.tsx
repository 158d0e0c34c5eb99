import { lazy, Suspense } from "react";
import { TalkingToServer } from "../frame/load-state";

/** The reserved pages with content of their own (spec 001 §2), each its own chunk, loaded when opened. */
const MembersPage = lazy(() => import("../members/members-page").then(({ MembersPage }) => ({ default: MembersPage })));
const GroupConversation = lazy(() => import("../conversation/group-conversation").then(({ GroupConversation }) => ({ default: GroupConversation })));

export function ReservedSlot({ groupId, reserved, readOnly }: { groupId: number; reserved: "members" | "conversation"; readOnly: boolean }) {
  return <Suspense fallback={<TalkingToServer />}>{reserved === "members" ? <MembersPage groupId={groupId} /> : <GroupConversation groupId={groupId} readOnly={readOnly} />}</Suspense>;
}
