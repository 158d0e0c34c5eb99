import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { API_VERSION, CLIENT_VERSION } from "../../lib/version";
import { KeySection } from "./key-section"; // account keys
import { ns } from "./i18n";

export function AdvancedSection() {
  const { t } = useTranslation(ns);
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("advanced")}
      </Title>
      <KeySection />
      <Anchor component={Link} to="/about/">
        {t("about")}
      </Anchor>
      <Text size="sm" c="dimmed">
        {t("version.client", { version: CLIENT_VERSION })} · {t("version.api", { version: API_VERSION })}
      </Text>
    </Stack>
  );
}
