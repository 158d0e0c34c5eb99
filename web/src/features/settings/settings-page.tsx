import { Alert, Container, Divider, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { errorText, isRefusal } from "../../lib/error-text";
import { AdvancedSection } from "./advanced-section";
import { useOwnUser } from "./get-own-user";
import { LanguageSection } from "./language-section";
import { PasswordSection } from "./password-section";
import { ProfileSection } from "./profile-section";
import { TotpSection } from "./totp-section";
import { ns } from "./i18n";

export function SettingsPage() {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  const user = useOwnUser(session.id);
  const [failure, setFailure] = useState<{ detail: string | null } | null>(null);
  usePageTitle(t("titles.settings"));

  // 'Error saving changes!', with the server's reason below when it gave one (a wrong old password).
  const onError = (error: unknown) =>
    setFailure({ detail: isRefusal(error) ? errorText(error) : null });

  return (
    <Container size="sm" px={0}>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {t("heading")}
        </Title>
        {user.isError ? <Alert color="red">{t("loadFailed")}</Alert> : null}
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
        message={failure ? t("saveFailed") : null}
        detail={failure?.detail}
        onClose={() => setFailure(null)}
      />
    </Container>
  );
}
