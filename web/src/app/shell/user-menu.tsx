import { Avatar, Menu, UnstyledButton, VisuallyHidden } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isInstanceAdmin, useRequiredSession } from "../../lib/session";
import { InviteIcon, ShieldIcon } from "../../lib/ui/icons";
import { LogoutItems } from "./logout-items";
import { ns } from "../i18n";

/** The top bar's user popover: status, Administration and Invite for instance admins, the logout choices. */
export function UserMenu() {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        {/* Named by its text, not aria-label: the initials it shows are not part of "User menu" (axe: label-content-name-mismatch). */}
        <UnstyledButton>
          <Avatar name={session.name} color="initials" radius="xl" size="md" aria-hidden="true" />
          <VisuallyHidden>{t("userMenu")}</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.name}</Menu.Label>
        <Menu.Label>{t("statusCurrent", { status: t("statusOnline") })}</Menu.Label>
        {isInstanceAdmin(session) ? (
          <>
            <Menu.Divider />
            <Menu.Item component={Link} to="/instanceadmin/" leftSection={<ShieldIcon size={16} />}>
              {t("admin")}
            </Menu.Item>
            <Menu.Item component={Link} to="/invite/" leftSection={<InviteIcon size={16} />}>
              {t("invite")}
            </Menu.Item>
          </>
        ) : null}
        <Menu.Divider />
        <Menu.Label>{t("logout")}</Menu.Label>
        <LogoutItems />
      </Menu.Dropdown>
    </Menu>
  );
}
