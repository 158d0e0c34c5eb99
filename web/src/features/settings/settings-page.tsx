import { Alert, Container, Divider, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../lib/api";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { AdvancedSection } from "./advanced-section";
import { useOwnUser } from "./get-own-user";
import { LanguageSection } from "./language-section";
import { PasswordSection } from "./password-section";
import { ProfileSection } from "./profile-section";
import { TotpSection } from "./totp-section";

export function SettingsPage() {
  const { t } = useTranslation();
  const session = useRequiredSession();
  const user = useOwnUser(session.id);
  const [failure, setFailure] = useState<{ detail: string | null } | null>(null);
  usePageTitle(t("titles.settings"));

  // 'Error saving changes!', with the server's reason below when it gave one (a wrong old password).
  const onError = (error: unknown) =>
    setFailure({ detail: isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : null });

  return (
    <Container size="sm" px={0}>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {t("settings.heading")}
        </Title>
        {user.isError ? <Alert color="red">{t("settings.loadFailed")}</Alert> : null}
        <ProfileSection user={user.data ?? session} onError={onError} />
        <Divider />
        <PasswordSection userId={session.id} onError={onError} />
        <Divider />
        <TotpSection enabled={user.data?.totp_enabled} pending={user.isPending} />
        <Divider />
        <LanguageSection />
        <Divider />
        <AdvancedSection />
      </Stack>
      <ErrorDialog
        message={failure ? t("settings.saveFailed") : null}
        detail={failure?.detail}
        onClose={() => setFailure(null)}
      />
    </Container>
  );
}
