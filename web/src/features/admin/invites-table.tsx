import { Badge, Button, Table, Text } from "@mantine/core";
import { inviteDaysLeft, type InviteView } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { formatDate, fromSeconds } from "../../lib/format";

export interface InvitesTableProps {
  invites: InviteView[];
  onResend: (invite: InviteView) => void;
  resending: number | null;
}

const STATUS_COLOR = { pending: "yellow", expired: "red", accepted: "green" } as const;

/** The administration page's invitations: who, status, days left (29 for a fresh one), resend. */
export function InvitesTable({ invites, onResend, resending }: InvitesTableProps) {
  const { t } = useTranslation();
  if (invites.length === 0) return <Text c="dimmed">{t("admin.invites.none")}</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label={t("admin.invites.heading")}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("admin.email")}</Table.Th>
            <Table.Th>{t("admin.invites.status")}</Table.Th>
            <Table.Th>{t("admin.invites.expires")}</Table.Th>
            <Table.Th>{t("admin.invites.invitedBy")}</Table.Th>
            <Table.Th>{t("admin.invites.created")}</Table.Th>
            <Table.Th>{t("admin.actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invites.map((invite) => (
            <Table.Tr key={invite.id} data-invite-row={invite.email ?? invite.id}>
              <Table.Td>{invite.email ?? invite.phone ?? ""}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[invite.status]} variant="light" size="sm">
                  {t(`admin.invites.${invite.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                {invite.status === "pending" ? t("admin.invites.expiresIn", { count: inviteDaysLeft(invite.expires_at) }) : invite.status === "expired" ? t("admin.invites.expired") : ""}
              </Table.Td>
              <Table.Td>{invite.invited_by?.name ?? ""}</Table.Td>
              <Table.Td>{formatDate(fromSeconds(invite.created_at))}</Table.Td>
              <Table.Td>
                {invite.status === "accepted" ? null : (
                  <Button
                    size="xs"
                    variant="light"
                    loading={resending === invite.id}
                    aria-label={t("admin.invites.resendTo", { email: invite.email ?? "" })}
                    onClick={() => onResend(invite)}
                  >
                    {t("admin.invites.resend")}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
