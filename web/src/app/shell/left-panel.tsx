import { ActionIcon, AppShell, Divider, Menu, ScrollArea, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { useGroupMenu } from "../../features/groups"; // groups
import { isGuest } from "../../lib/guest";
import { useFeature } from "../../lib/instance";
import { isInstanceAdmin, useRequiredSession } from "../../lib/session";
import { ChevronsLeftIcon, ChevronsRightIcon, HomeIcon, InviteIcon, LogoutIcon, SettingsIcon, ShieldIcon } from "../../lib/ui/icons";
import { ConversationMenu } from "./conversation-menu"; // conversations
import { LogoutItems } from "./logout-items";
import { NavButtonItem, NavLinkItem } from "./nav-item";
import { RecentList } from "./recent-list";
import { StatusSelect } from "./status-select";
import { UserBlock } from "./user-block";
import { ns } from "../i18n";

export interface LeftPanelProps {
  maximised: boolean;
  /** Absent on phones, where the panel is a full-width drawer behind the burger. */
  onToggleMaximised?: () => void;
}

/** Spec 000 §2: Home, the user block, status, Settings, Administration, Invite, Logout, Recently. */
export function LeftPanel({ maximised, onToggleMaximised }: LeftPanelProps) {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  const conversations = useFeature("convo") === true;
  const align = maximised ? "stretch" : "center";
  // Inside a group the menu lists its pages (spec 001 §2) where the conversations are elsewhere.
  const groupMenu = useGroupMenu(useLocation().pathname);

  return (
    <>
      <AppShell.Section py="xs" px={6}>
        <Stack gap={4} align={align}>
          {onToggleMaximised ? (
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={onToggleMaximised}
              aria-label={t(maximised ? "collapseMenu" : "expandMenu")}
              style={{ alignSelf: maximised ? "flex-end" : "center" }}
            >
              {maximised ? <ChevronsLeftIcon size={16} /> : <ChevronsRightIcon size={16} />}
            </ActionIcon>
          ) : null}
          <NavLinkItem to="/" label={t("home")} icon={<HomeIcon />} maximised={maximised} />
        </Stack>
      </AppShell.Section>
      <Divider />
      <AppShell.Section py="xs" px={6}>
        <Stack gap="xs" align={align}>
          <UserBlock maximised={maximised} />
          {maximised ? <StatusSelect /> : null}
        </Stack>
      </AppShell.Section>
      <Divider />
      <AppShell.Section py="xs" px={6}>
        <Stack gap={4} align={align}>
          {/* Guests see no settings (spec 000 §2). */}
          {isGuest(session) ? null : <NavLinkItem to="/settings/" label={t("settings")} icon={<SettingsIcon />} maximised={maximised} />}
          {isInstanceAdmin(session) ? (
            <>
              <NavLinkItem to="/instanceadmin/" label={t("admin")} icon={<ShieldIcon />} maximised={maximised} />
              <NavLinkItem to="/invite/" label={t("invite")} icon={<InviteIcon />} maximised={maximised} />
            </>
          ) : null}
          <Menu position={maximised ? "bottom-start" : "right-start"} withinPortal>
            <Menu.Target>
              <NavButtonItem label={t("logout")} icon={<LogoutIcon />} maximised={maximised} />
            </Menu.Target>
            <Menu.Dropdown>
              <LogoutItems />
            </Menu.Dropdown>
          </Menu>
        </Stack>
      </AppShell.Section>
      <Divider />
      {groupMenu ? (
        <>
          <AppShell.Section py="xs" px={6} component={ScrollArea} mah="50vh">
            <Stack gap={4} align={align} component="section" aria-label={t("groupMenu", { name: groupMenu.groupName })}>
              {groupMenu.items.map((item) => (
                <NavLinkItem key={item.key} to={item.to} label={item.label} icon={item.icon} maximised={maximised} dimmed={item.dimmed} />
              ))}
            </Stack>
          </AppShell.Section>
          <Divider />
        </>
      ) : null}
      {/* Conversations, unless the instance has them switched off (a group's menu takes their place). */}
      {conversations && !groupMenu ? (
        <>
          <AppShell.Section py="xs" px={6} component={ScrollArea} mah="40vh">
            <ConversationMenu maximised={maximised} />
          </AppShell.Section>
          <Divider />
        </>
      ) : null}
      {maximised ? (
        // Focusable: a group's menu can leave the list little room, and a region that scrolls must be reachable by keyboard.
        <AppShell.Section grow component={ScrollArea} p="xs" viewportProps={{ tabIndex: 0 }}>
          <RecentList />
        </AppShell.Section>
      ) : null}
    </>
  );
}
