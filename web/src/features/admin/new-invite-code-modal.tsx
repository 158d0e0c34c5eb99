import { Alert, Button, Group, Text } from "@mantine/core";
import type { InviteView } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/error-text";
import { HandoverModal } from "./handover-modal";
import { useIssueInviteCode } from "./new-invite-code";
import { ns } from "./i18n";

export interface NewInviteCodeModalProps {
  /** The invitation whose invitee lost their code; the modal is open while it is set. */
  invite: InviteView | null;
  onClose: () => void;
}

/**
 * Asks before an administrator issues a new invitation code (the old one stops working), then
 * shows the new code once, to pass on by another channel, as for a new invitation.
 */
export function NewInviteCodeModal({ invite, onClose }: NewInviteCodeModalProps) {
  const { t } = useTranslation([ns, "common"]);
  const issue = useIssueInviteCode();
  const email = invite?.email ?? invite?.phone ?? "";

  return (
    <HandoverModal
      opened={invite !== null}
      title={t("invites.newCodeTitle", { email })}
      mutation={issue}
      onClose={onClose}
      made={issue.data ? { code: issue.data.code, intro: t("invites.newCodeMade", { email }) } : null}
      code={{ label: t("invites.codeLabel"), attributes: { "data-invitation-code": true } }}
      marker="data-invite-code"
      confirm={(close) => (
        <>
          <Text>{t("invites.newCodeIntro", { email })}</Text>
          {issue.error ? (
            <Alert color="red" role="alert" title={t("common:error")}>
              {errorText(issue.error, t("invites.newCodeFailed"))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={issue.isPending} data-autofocus>
              {t("common:cancel")}
            </Button>
            <Button onClick={() => invite && issue.mutate(invite)} loading={issue.isPending}>
              {t("invites.newCodeConfirm")}
            </Button>
          </Group>
        </>
      )}
    />
  );
}
