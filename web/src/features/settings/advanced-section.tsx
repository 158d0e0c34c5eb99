import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { API_VERSION, CLIENT_VERSION } from "../../lib/version";
import { KeySection } from "./key-section"; // account keys

export function AdvancedSection() {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("settings.advanced")}
      </Title>
      <KeySection />
      <Anchor component={Link} to="/about/">
        {t("settings.about")}
      </Anchor>
      <Text size="sm" c="dimmed">
        {t("about.client", { version: CLIENT_VERSION })} · {t("about.api", { version: API_VERSION })}
      </Text>
    </Stack>
  );
}
