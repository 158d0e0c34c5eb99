import { Box, Stack, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../lib/page-title";
import { LeftPanel } from "./left-panel";
import { ns } from "../i18n";

/**
 * /panel-left/ (spec 000 §2, the side panels as routes): the left panel on a page of its own,
 * maximised, as a phone shows it.
 */
export function LeftPanelPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("titles.menu"));
  return (
    <Stack gap="xs" maw={360}>
      <Title order={1} size="h3">
        {t("titles.menu")}
      </Title>
      <Box component="nav" aria-label={t("titles.menu")}>
        <LeftPanel maximised />
      </Box>
    </Stack>
  );
}
