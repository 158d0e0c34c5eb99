import { Badge, Button, Group, Table, Text } from "@mantine/core";
import type { ListedUser, PublicUser } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { formatDate, fromSeconds } from "../../lib/format";
import { ns } from "./i18n";

export interface UsersTableProps {
  users: ListedUser[];
  onEdit: (user: PublicUser) => void;
  /** Offered for users with 2FA on. */
  onSwitchOffTotp?: (user: PublicUser) => void;
  /** Offered for every account but the administrator's own: disable, or enable a disabled one. */
  onToggleDisabled?: (user: PublicUser) => void;
  /** Offered for every account but the administrator's own whose invitation was taken: reset the key of someone who lost their secure code. */
  onResetKey?: (user: PublicUser) => void;
  /** The signed-in administrator, who cannot disable themself nor reset their own key. */
  selfId?: number;
  /** The signed-in administrator is a super administrator: only they reset a super administrator's key. */
  selfSuper?: boolean;
}

export function UsersTable({ users, onEdit, onSwitchOffTotp, onToggleDisabled, onResetKey, selfId, selfSuper }: UsersTableProps) {
  const { t } = useTranslation(ns);
  if (users.length === 0) return <Text c="dimmed">{t("noUsers")}</Text>;

  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("id")}</Table.Th>
            <Table.Th>{t("name")}</Table.Th>
            <Table.Th>{t("email")}</Table.Th>
            <Table.Th>{t("phone")}</Table.Th>
            <Table.Th>{t("roles")}</Table.Th>
            <Table.Th>{t("totp")}</Table.Th>
            <Table.Th>{t("actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-user-row={user.id}>
              <Table.Td>{user.id}</Table.Td>
              <Table.Td>{user.name}</Table.Td>
              <Table.Td>{user.email ?? ""}</Table.Td>
              <Table.Td>{user.phone ?? ""}</Table.Td>
              <Table.Td>
                <Roles user={user} />
              </Table.Td>
              <Table.Td>{t(user.totp_enabled ? "totpOn" : "totpOff")}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" aria-label={t("editUser", { name: user.name })} onClick={() => onEdit(user)}>
                    {t("edit")}
                  </Button>
                  {user.totp_enabled && onSwitchOffTotp ? (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={t("twoFactor.switchOffUser", { name: user.name })}
                      onClick={() => onSwitchOffTotp(user)}
                    >
                      {t("twoFactor.switchOff")}
                    </Button>
                  ) : null}
                  {onToggleDisabled && user.id !== selfId ? (
                    <Button
                      size="xs"
                      variant="light"
                      color={user.disabled ? "blue" : "red"}
                      aria-label={t(user.disabled ? "account.enableUser" : "account.disableUser", { name: user.name })}
                      onClick={() => onToggleDisabled(user)}
                    >
                      {t(user.disabled ? "account.enable" : "account.disable")}
                    </Button>
                  ) : null}
                  {onResetKey && user.id !== selfId && !user.password_empty && (selfSuper || !user.hasSuperAdminRole) ? (
                    <Button size="xs" variant="light" color="orange" aria-label={t("resetKey.actionUser", { name: user.name })} onClick={() => onResetKey(user)}>
                      {t("resetKey.action")}
                    </Button>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Roles({ user }: { user: ListedUser }) {
  const { t } = useTranslation(ns);
  const roles = [
    user.hasSuperAdminRole ? t("roleSuper") : null,
    user.hasAdminRole ? t("roleAdmin") : null,
    !user.hasSuperAdminRole && !user.hasAdminRole ? t("roleUser") : null,
  ].filter((role) => role !== null);
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant="light" size="sm">
          {role}
        </Badge>
      ))}
      {user.disabled ? (
        <Badge color="red" variant="light" size="sm">
          {t("account.disabledBadge")}
        </Badge>
      ) : null}
      {user.key_reset ? <KeyReset expires={user.key_reset.expires} /> : null}
      {user.password_empty ? (
        <Badge color="yellow" variant="light" size="sm">
          {t("pending")}
        </Badge>
      ) : null}
    </Group>
  );
}

/** A key reset an administrator made that the user has not taken over yet (another administrator sees it here), with its end. */
function KeyReset({ expires }: { expires: number }) {
  const { t } = useTranslation(ns);
  const ended = expires * 1000 <= Date.now();
  return (
    <Badge color={ended ? "red" : "orange"} variant="light" size="sm" data-key-reset={ended ? "ended" : "pending"}>
      {t(ended ? "resetKey.ended" : "resetKey.pending", { date: formatDate(fromSeconds(expires)) })}
    </Badge>
  );
}
