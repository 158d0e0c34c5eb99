import { type ComponentType, lazy, Suspense } from "react";
import { TalkingToServer } from "../frame/load-state";
import { PagePlaceholder } from "./page-placeholder";
import type { PageView } from "../get-page";

export interface MembersSlotProps {
  groupId: number;
  page: PageView;
}

/**
 * The members page (spec 001 §2) is its own part of this feature (members/members-page.tsx,
 * built beside this frame): the slot shows it when the file is there, the reserved page's
 * placeholder until then. The glob finds the file or nothing, so neither side waits on the other.
 */
const found = import.meta.glob<Record<string, unknown>>("../members/members-page.tsx");
const load = Object.values(found)[0];

const MembersPage = load
  ? lazy(async () => {
      const module = await load();
      const component = module.MembersPage ?? module.default ?? Object.values(module).find((value) => typeof value === "function");
      return { default: component as ComponentType<MembersSlotProps> };
    })
  : null;

export function MembersSlot(props: MembersSlotProps) {
  if (!MembersPage) return <PagePlaceholder page={props.page} />;
  return (
    <Suspense fallback={<TalkingToServer />}>
      <MembersPage {...props} />
    </Suspense>
  );
}
