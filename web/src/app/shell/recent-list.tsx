import { Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ns } from "../i18n";

/** Recently visited places; nothing records visits yet, so the list is always empty for now. */
export function RecentList() {
  const { t } = useTranslation(ns);
  return (
    <Stack gap={4} component="section" aria-label={t("recently")}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {t("recently")}
      </Text>
      <Text size="xs" c="dimmed">
        {t("nothingRecent")}
      </Text>
    </Stack>
  );
}
