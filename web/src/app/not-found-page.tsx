import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePageTitle } from "../lib/page-title";
import { ns } from "./i18n";

export function NotFoundPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("titles.notFound"));
  return (
    <Stack gap="sm">
      <Title order={1} size="h2">
        {t("titles.notFound")}
      </Title>
      <Text>{t("notFound.text")}</Text>
      <Anchor component={Link} to="/">
        {t("notFound.home")}
      </Anchor>
    </Stack>
  );
}
