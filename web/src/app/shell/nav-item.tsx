import { ActionIcon, NavLink, Tooltip } from "@mantine/core";
import type { ComponentPropsWithRef, ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { isActivePath } from "./active-path";

interface NavItemBase {
  label: string;
  icon: ReactNode;
  /** Maximised menus show labels; the narrow one shows icons with the label as tooltip and name. */
  maximised: boolean;
}

/** 140 px leaves little room: tight padding and 13 px text keep "Administration" whole. */
const COMPACT = {
  root: { paddingInline: 6 },
  section: { marginInlineEnd: 8 },
  label: { fontSize: 13 },
} as const;

/** `dimmed`: shown greyed (a group's internal pages, spec 001 §2), still a link. */
export function NavLinkItem({ to, label, icon, maximised, dimmed = false }: NavItemBase & { to: string; dimmed?: boolean }) {
  const { pathname } = useLocation();
  const active = isActivePath(pathname, to);
  const greyed = dimmed ? { "data-dimmed": true, style: { opacity: 0.55 } } : {};
  if (maximised) {
    return <NavLink component={Link} to={to} label={label} title={label} leftSection={icon} active={active} styles={COMPACT} {...greyed} />;
  }
  return (
    <Tooltip label={label} position="right" withArrow>
      <ActionIcon component={Link} to={to} aria-label={label} variant={active ? "light" : "subtle"} size="xl" {...greyed}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** A menu entry that acts rather than navigates; takes the props and ref of a menu target. */
export function NavButtonItem({ label, icon, maximised, ...rest }: NavItemBase & Omit<ComponentPropsWithRef<"button">, "onChange">) {
  if (maximised) {
    return <NavLink component="button" type="button" label={label} leftSection={icon} styles={COMPACT} {...rest} />;
  }
  return (
    <ActionIcon aria-label={label} title={label} variant="subtle" size="xl" {...rest}>
      {icon}
    </ActionIcon>
  );
}
