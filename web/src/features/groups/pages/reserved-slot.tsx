import type { ReservedPage } from "@sealwork/contracts";
import { lazy, Suspense } from "react";
import { TalkingToServer } from "../frame/load-state";

/** The reserved pages with content of their own (spec 001 §2), each its own chunk, loaded when opened. */
const MembersPage = lazy(() => import("../members/members-page").then(({ MembersPage }) => ({ default: MembersPage })));
const DrivePage = lazy(() => import("../drive/drive-page").then(({ DrivePage }) => ({ default: DrivePage })));
const GroupConversation = lazy(() => import("../conversation/group-conversation").then(({ GroupConversation }) => ({ default: GroupConversation })));

export function ReservedSlot({ groupId, reserved, readOnly }: { groupId: number; reserved: ReservedPage; readOnly: boolean }) {
  const page = {
    members: <MembersPage groupId={groupId} />,
    conversation: <GroupConversation groupId={groupId} readOnly={readOnly} />,
    drive: <DrivePage groupId={groupId} readOnly={readOnly} />,
  }[reserved];
  return <Suspense fallback={<TalkingToServer />}>{page}</Suspense>;
}
