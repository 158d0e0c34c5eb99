import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Two-factor status only; the setup screen (/settings/totp) is not built yet, so no link. */
export function TotpSection({ enabled, pending }: { enabled: boolean | undefined; pending: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("settings.totp")}
      </Title>
      {pending ? <Text>{t("common.loading")}</Text> : null}
      {enabled !== undefined ? <Text>{t(enabled ? "settings.totpOn" : "settings.totpOff")}</Text> : null}
    </Stack>
  );
}
