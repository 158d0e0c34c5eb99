import { Anchor, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type GroupView, useGroup } from "../get-group";
import { groupIdOfPath, menuLabel, pagePath, visibleEntries } from "./menu-entries";
import { PageIcon, PlusIcon } from "./page-icons";
import { ns } from "../i18n";

export interface GroupMenuItem {
  key: string;
  to: string;
  label: string;
  icon: ReactNode;
  /** Internal pages are greyed (spec 001 §2). */
  dimmed: boolean;
}

/**
 * The left menu inside a group (spec 001 §2, spec 000 §2): the pages the caller may see (level
 * above 0) by menu order, internal ones greyed, and '(new)' where the caller may create pages.
 */
export function groupMenuItems(group: GroupView, t: (key: "newPage") => string): GroupMenuItem[] {
  const pages = visibleEntries(group.menu).map((entry) => ({
    key: String(entry.id),
    to: pagePath(group.id, entry),
    label: menuLabel(entry),
    icon: <PageIcon entry={entry} />,
    dimmed: entry.internal,
  }));
  if (!group.am_admin) return pages;
  return [...pages, { key: "new", to: `/group/${group.id}/newpage`, label: t("newPage"), icon: <PlusIcon />, dimmed: false }];
}

/** The menu items of the group `pathname` is inside, once the group is loaded (the frame's query: no second request). */
export function useGroupMenu(pathname: string): { groupName: string; items: GroupMenuItem[] } | null {
  const { t } = useTranslation(ns);
  const groupId = groupIdOfPath(pathname);
  const { data } = useGroup(groupId);
  if (groupId === null || !data) return null;
  return { groupName: data.name, items: groupMenuItems(data, (key) => t(`menu.${key}`)) };
}

/** The group's menu above its pages, for an instance without the left navigation. */
export function InlineGroupMenu({ group }: { group: GroupView }) {
  const { t } = useTranslation(ns);
  const items = groupMenuItems(group, (key) => t(`menu.${key}`));
  return (
    <Group component="nav" aria-label={t("menu.label", { name: group.name })} gap="md">
      {items.map((item) => (
        <Anchor key={item.key} component={Link} to={item.to} c={item.dimmed ? "dimmed" : undefined}>
          <Group gap={4} wrap="nowrap">
            {item.icon}
            <Text span inherit>
              {item.label}
            </Text>
          </Group>
        </Anchor>
      ))}
    </Group>
  );
}
