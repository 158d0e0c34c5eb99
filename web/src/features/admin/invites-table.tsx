import { Badge, Button, Group, Table, Text } from "@mantine/core";
import { inviteDaysLeft, type InviteView } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { formatDate, fromSeconds } from "../../lib/format";
import { ns } from "./i18n";

export interface InvitesTableProps {
  invites: InviteView[];
  onResend: (invite: InviteView) => void;
  resending: number | null;
  /** A new invitation code, for an invitee who lost theirs before taking their key over. */
  onNewCode: (invite: InviteView) => void;
}

const STATUS_COLOR = { pending: "yellow", expired: "red", accepted: "green" } as const;

/** The administration page's invitations: who, status, days left (29 for a fresh one), resend. */
export function InvitesTable({ invites, onResend, resending, onNewCode }: InvitesTableProps) {
  const { t } = useTranslation(ns);
  if (invites.length === 0) return <Text c="dimmed">{t("invites.none")}</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label={t("invites.heading")}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("email")}</Table.Th>
            <Table.Th>{t("invites.status")}</Table.Th>
            <Table.Th>{t("invites.expires")}</Table.Th>
            <Table.Th>{t("invites.invitedBy")}</Table.Th>
            <Table.Th>{t("invites.created")}</Table.Th>
            <Table.Th>{t("actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invites.map((invite) => (
            <Table.Tr key={invite.id} data-invite-row={invite.email ?? invite.id}>
              <Table.Td>{invite.email ?? invite.phone ?? ""}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[invite.status]} variant="light" size="sm">
                  {t(`invites.${invite.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                {invite.status === "pending" ? t("invites.expiresIn", { count: inviteDaysLeft(invite.expires_at) }) : invite.status === "expired" ? t("invites.expired") : ""}
              </Table.Td>
              <Table.Td>{invite.invited_by?.name ?? ""}</Table.Td>
              <Table.Td>{formatDate(fromSeconds(invite.created_at))}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {invite.status === "accepted" ? null : (
                    <Button
                      size="xs"
                      variant="light"
                      loading={resending === invite.id}
                      aria-label={t("invites.resendTo", { email: invite.email ?? "" })}
                      onClick={() => onResend(invite)}
                    >
                      {t("invites.resend")}
                    </Button>
                  )}
                  {/* An expired one gets a new code with Resend; a taken-over key needs a key reset. */}
                  {invite.status !== "expired" && invite.awaiting_key ? (
                    <Button size="xs" variant="default" aria-label={t("invites.newCodeFor", { email: invite.email ?? invite.phone ?? "" })} onClick={() => onNewCode(invite)}>
                      {t("invites.newCode")}
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
