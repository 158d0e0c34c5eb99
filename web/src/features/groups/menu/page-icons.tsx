import type { MenuEntry } from "@sealwork/contracts";
import type { ReactNode } from "react";
import { Icon, type IconProps } from "../../../lib/ui/icons";

/** The icons a menu item may choose (spec 001 §2, page icon), by the name stored with the page. */
const PATHS: Record<string, ReactNode> = {
  pin: <path d="M12 17v5M9 3h6l-1 6 3 3v2H7v-2l3-3z" />,
  blog: <path d="M4 4h16v16H4zM8 8h8M8 12h8M8 16h5" />,
  gallery: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 16l5-5 4 4 3-3 6 6" />
    </>
  ),
  calendar: (
    <>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </>
  ),
  cards: <path d="M7 4h13v13H7zM4 7v13h13" />,
  form: <path d="M6 3h12v18H6zM9 8h6M9 12h6M9 16h3" />,
  folder: <path d="M3 6h6l2 2h10v11H3z" />,
  people: (
    <>
      <circle cx="9" cy="8" r="3" />
      <path d="M3 20a6 6 0 0 1 12 0M16 5a3 3 0 0 1 0 6M18 20a6 6 0 0 0-3-5" />
    </>
  ),
  chat: <path d="M4 5h16v11H9l-5 4z" />,
  star: <path d="M12 3l2.8 5.8 6.2.9-4.5 4.4 1 6.2L12 17.4 6.5 20.3l1-6.2L3 9.7l6.2-.9z" />,
  book: <path d="M4 4h7a2 2 0 0 1 2 2v14a2 2 0 0 0-2-2H4zM20 4h-7a2 2 0 0 0-2 2v14a2 2 0 0 1 2-2h7z" />,
  flag: <path d="M5 21V4h11l-2 4 2 4H5" />,
};

export const PAGE_ICONS = Object.keys(PATHS);

/** A page's own icon when it names one, else its type's. */
const BY_TYPE: Record<MenuEntry["type"], string> = {
  pinboard: "pin",
  blog: "blog",
  gallery: "gallery",
  calendar: "calendar",
  carddeck: "cards",
  form: "form",
  drive: "folder",
  members: "people",
  conversation: "chat",
};

export function PageIcon({ entry, ...props }: { entry: Pick<MenuEntry, "icon" | "type"> } & IconProps) {
  const name = entry.icon && PATHS[entry.icon] ? entry.icon : BY_TYPE[entry.type];
  return <Icon {...props}>{PATHS[name]}</Icon>;
}

export const PlusIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const LockIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Icon>
);

export const GearIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="3" />
    <path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1" />
  </Icon>
);
