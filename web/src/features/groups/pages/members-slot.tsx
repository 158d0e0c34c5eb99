import { lazy, Suspense } from "react";
import { TalkingToServer } from "../frame/load-state";

/** The members page (spec 001 §2, members/): its own chunk, loaded when the reserved page is opened. */
const MembersPage = lazy(() => import("../members/members-page").then(({ MembersPage }) => ({ default: MembersPage })));

export function MembersSlot({ groupId }: { groupId: number }) {
  return (
    <Suspense fallback={<TalkingToServer />}>
      <MembersPage groupId={groupId} />
    </Suspense>
  );
}
