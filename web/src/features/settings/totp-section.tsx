import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ns } from "./i18n";

/** Two-factor status and the link to its setup screen (/settings/totp). */
export function TotpSection({ enabled, pending }: { enabled: boolean | undefined; pending: boolean }) {
  const { t } = useTranslation([ns, "common"]);
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("totp")}
      </Title>
      {pending ? <Text>{t("common:loading")}</Text> : null}
      {enabled !== undefined ? <Text>{t(enabled ? "totpOn" : "totpOff")}</Text> : null}
      <Anchor component={Link} to="/settings/totp">
        {t("twoFactor.manage")}
      </Anchor>
    </Stack>
  );
}
