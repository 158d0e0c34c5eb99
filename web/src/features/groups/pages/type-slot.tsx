import type { PageType } from "@sealwork/contracts";
import { lazy, Suspense } from "react";
import { TalkingToServer } from "../frame/load-state";
import type { PageView } from "../get-page";

/** What a page type's screen gets from the page frame. */
export interface PageTypeProps {
  groupId: number;
  page: PageView;
  /** The page's add button was pressed: the type's editor opens to create an item. */
  creating: boolean;
  onCreatingDone: () => void;
}

/** The page types with content of their own, each its own chunk loaded when opened; the others keep the placeholder until their feature comes. */
const TYPES: Partial<Record<PageType, React.ComponentType<PageTypeProps>>> = {
  calendar: lazy(() => import("../calendar/calendar-page").then(({ CalendarPage }) => ({ default: CalendarPage }))),
  pinboard: lazy(() => import("../pinboard/pinboard-page").then(({ PinboardPage }) => ({ default: PinboardPage }))),
  blog: lazy(() => import("../blog/blog-page").then(({ BlogPage }) => ({ default: BlogPage }))),
  gallery: lazy(() => import("../gallery/gallery-page").then(({ GalleryPage }) => ({ default: GalleryPage }))),
};

export const hasContent = (type: string): type is PageType => type in TYPES;

export function TypeSlot(props: PageTypeProps) {
  const Page = TYPES[props.page.type as PageType]!;
  return (
    <Suspense fallback={<TalkingToServer />}>
      <Page key={props.page.id} {...props} />
    </Suspense>
  );
}
