import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** Two-factor status and the link to its setup screen (/settings/totp). */
export function TotpSection({ enabled, pending }: { enabled: boolean | undefined; pending: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("settings.totp")}
      </Title>
      {pending ? <Text>{t("common.loading")}</Text> : null}
      {enabled !== undefined ? <Text>{t(enabled ? "settings.totpOn" : "settings.totpOff")}</Text> : null}
      <Anchor component={Link} to="/settings/totp">
        {t("totp.manage")}
      </Anchor>
    </Stack>
  );
}
