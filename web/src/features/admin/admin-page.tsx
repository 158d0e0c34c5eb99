import { Alert, Code, Loader, Modal, Stack, Text, Title } from "@mantine/core";
import type { InviteView, PublicUser } from "@sealwork/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../lib/page-title";
import { AdminCertificates } from "./admin-certificates";
import { LegacyKeys } from "./legacy-keys";
import { EditUserModal } from "./edit-user-modal";
import { InvitesTable } from "./invites-table";
import { NewInviteCodeModal } from "./new-invite-code-modal";
import { useInstanceInvites } from "./list-invites";
import { useResendInvite, type Resent } from "./resend-invite";
import { useInstanceUsers } from "./list-users";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { errorText } from "../../lib/error-text";
import { SwitchOffTotpModal } from "./switch-off-totp-modal";
import { DisableAccountModal } from "./disable-account-modal";
import { ResetKeyModal } from "./reset-key-modal";
import { useSession } from "../../lib/session";
import { UsersTable } from "./users-table";
import { ns } from "./i18n";

/** /instanceadmin/: the instance's users; the router shows it to instance admins only. */
export function AdminPage() {
  const { t } = useTranslation([ns, "common"]);
  const users = useInstanceUsers();
  const [editing, setEditing] = useState<PublicUser | null>(null);
  // Two-factor: the user whose 2FA is being switched off, and a failure to report.
  const [switchingOff, setSwitchingOff] = useState<PublicUser | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [toggling, setToggling] = useState<PublicUser | null>(null);
  const [resetting, setResetting] = useState<PublicUser | null>(null);
  const session = useSession();
  const invites = useInstanceInvites();
  const resend = useResendInvite();
  // An expired invitation issued again: its new code, shown once to the administrator.
  const [reissued, setReissued] = useState<Resent | null>(null);
  const [newCodeFor, setNewCodeFor] = useState<InviteView | null>(null);
  usePageTitle(t("titles.admin"));

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t("heading")}
      </Title>
      <Title order={2} size="h3">
        {t("users")}
      </Title>
      {users.isPending ? <Loader aria-label={t("common:loading")} /> : null}
      {users.isError ? <Alert color="red">{t("fetchFailed")}</Alert> : null}
      {users.data ? <UsersTable users={users.data} onEdit={setEditing} onSwitchOffTotp={setSwitchingOff} onToggleDisabled={setToggling} onResetKey={setResetting} selfId={session?.id} selfSuper={session?.hasSuperAdminRole} /> : null}
      {users.data ? <AdminCertificates users={users.data} /> : null}
      {users.data ? <LegacyKeys /> : null}
      <Title order={2} size="h3">
        {t("invites.heading")}
      </Title>
      {invites.isPending ? <Loader aria-label={t("common:loading")} /> : null}
      {invites.isError ? <Alert color="red">{t("invites.fetchFailed")}</Alert> : null}
      {invites.data ? (
        <InvitesTable
          invites={invites.data}
          resending={resend.isPending ? (resend.variables?.id ?? null) : null}
          onNewCode={setNewCodeFor}
          onResend={(invite) =>
            resend.mutate(invite, {
              onSuccess: (resent) => setReissued(resent.code ? resent : null),
              onError: (error) => setFailure(errorText(error, t("invites.resendFailed"))),
            })
          }
        />
      ) : null}
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
      <SwitchOffTotpModal user={switchingOff} onClose={() => setSwitchingOff(null)} onError={setFailure} />
      <DisableAccountModal user={toggling} onClose={() => setToggling(null)} onError={setFailure} />
      <ResetKeyModal user={resetting} onClose={() => setResetting(null)} />
      <NewInviteCodeModal invite={newCodeFor} onClose={() => setNewCodeFor(null)} />
      <ErrorDialog message={failure} onClose={() => setFailure(null)} />
      <Modal opened={reissued !== null} onClose={() => setReissued(null)} title={t("invites.reissuedTitle")} centered>
        <Stack>
          <Text>{t("invites.reissued", { email: reissued?.invite.email ?? reissued?.invite.phone ?? "" })}</Text>
          <Code fz="xl" fw={700} p="md" data-invitation-code>
            {reissued?.code}
          </Code>
        </Stack>
      </Modal>
    </Stack>
  );
}
