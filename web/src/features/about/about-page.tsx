import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useInstance } from "../../lib/instance";
import { usePageTitle } from "../../lib/page-title";
import { API_VERSION, CLIENT_VERSION } from "../../lib/version";
import { ns } from "./i18n";

export function AboutPage() {
  const { t } = useTranslation(ns);
  const { title } = useInstance();
  usePageTitle(t("titles.about"));
  return (
    <Stack gap="xs">
      <Title order={1} size="h2">
        {t("heading")}
      </Title>
      <Text fw={500}>{title}</Text>
      <Text>{t("client", { version: CLIENT_VERSION })}</Text>
      <Text>{t("api", { version: API_VERSION })}</Text>
    </Stack>
  );
}
