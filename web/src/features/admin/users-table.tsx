import { Badge, Button, Group, Table, Text } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";

export interface UsersTableProps {
  users: PublicUser[];
  onEdit: (user: PublicUser) => void;
  /** Offered for users with 2FA on. */
  onSwitchOffTotp?: (user: PublicUser) => void;
}

export function UsersTable({ users, onEdit, onSwitchOffTotp }: UsersTableProps) {
  const { t } = useTranslation();
  if (users.length === 0) return <Text c="dimmed">{t("admin.noUsers")}</Text>;

  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("admin.id")}</Table.Th>
            <Table.Th>{t("admin.name")}</Table.Th>
            <Table.Th>{t("admin.email")}</Table.Th>
            <Table.Th>{t("admin.phone")}</Table.Th>
            <Table.Th>{t("admin.roles")}</Table.Th>
            <Table.Th>{t("admin.totp")}</Table.Th>
            <Table.Th>{t("admin.actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id}>
              <Table.Td>{user.id}</Table.Td>
              <Table.Td>{user.name}</Table.Td>
              <Table.Td>{user.email ?? ""}</Table.Td>
              <Table.Td>{user.phone ?? ""}</Table.Td>
              <Table.Td>
                <Roles user={user} />
              </Table.Td>
              <Table.Td>{t(user.totp_enabled ? "admin.totpOn" : "admin.totpOff")}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" aria-label={t("admin.editUser", { name: user.name })} onClick={() => onEdit(user)}>
                    {t("admin.edit")}
                  </Button>
                  {user.totp_enabled && onSwitchOffTotp ? (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={t("totp.admin.switchOffUser", { name: user.name })}
                      onClick={() => onSwitchOffTotp(user)}
                    >
                      {t("totp.admin.switchOff")}
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

function Roles({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const roles = [
    user.hasSuperAdminRole ? t("admin.roleSuper") : null,
    user.hasAdminRole ? t("admin.roleAdmin") : null,
    !user.hasSuperAdminRole && !user.hasAdminRole ? t("admin.roleUser") : null,
  ].filter((role) => role !== null);
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant="light" size="sm">
          {role}
        </Badge>
      ))}
      {user.password_empty ? (
        <Badge color="yellow" variant="light" size="sm">
          {t("admin.pending")}
        </Badge>
      ) : null}
    </Group>
  );
}
