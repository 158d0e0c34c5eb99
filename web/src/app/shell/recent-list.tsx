import { Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Recently visited places; nothing records visits yet, so the list is always empty for now. */
export function RecentList() {
  const { t } = useTranslation();
  return (
    <Stack gap={4} component="section" aria-label={t("shell.recently")}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {t("shell.recently")}
      </Text>
      <Text size="xs" c="dimmed">
        {t("shell.nothingRecent")}
      </Text>
    </Stack>
  );
}
