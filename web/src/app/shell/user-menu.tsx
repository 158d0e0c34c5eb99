import { Avatar, Menu, UnstyledButton } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { isInstanceAdmin, useRequiredSession } from "../../lib/session";
import { InviteIcon, ShieldIcon } from "../../lib/ui/icons";
import { LogoutItems } from "./logout-items";

/** The top bar's user popover: status, Administration and Invite for instance admins, the logout choices. */
export function UserMenu() {
  const { t } = useTranslation();
  const session = useRequiredSession();
  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t("shell.userMenu")}>
          <Avatar name={session.name} color="initials" radius="xl" size="md" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.name}</Menu.Label>
        <Menu.Label>{t("shell.statusCurrent", { status: t("shell.statusOnline") })}</Menu.Label>
        {isInstanceAdmin(session) ? (
          <>
            <Menu.Divider />
            <Menu.Item component={Link} to="/instanceadmin/" leftSection={<ShieldIcon size={16} />}>
              {t("shell.admin")}
            </Menu.Item>
            <Menu.Item component={Link} to="/invite/" leftSection={<InviteIcon size={16} />}>
              {t("shell.invite")}
            </Menu.Item>
          </>
        ) : null}
        <Menu.Divider />
        <Menu.Label>{t("shell.logout")}</Menu.Label>
        <LogoutItems />
      </Menu.Dropdown>
    </Menu>
  );
}
