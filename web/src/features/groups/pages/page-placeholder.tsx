import { Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { PageView } from "../get-page";
import { PageIcon } from "../menu/page-icons";
import { ns } from "../i18n";

/**
 * A page's content until its type's feature arrives (the drive, the card deck, the pinboard…):
 * the type's empty state, and on a read-only page (level ≤ 1) the spec's text instead of an
 * invitation to add something (spec 001 §2, §5).
 */
export function PagePlaceholder({ page }: { page: Pick<PageView, "type" | "icon" | "read_only" | "can_create"> }) {
  const { t } = useTranslation(ns);
  return (
    <Paper withBorder p="xl" radius="md" data-page-type={page.type}>
      <Stack align="center" gap="xs">
        <PageIcon entry={page} size={40} color="var(--mantine-color-dimmed)" />
        <Text fw={500}>{t(`empty.${page.type}`)}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {page.read_only ? t("readOnly") : page.can_create ? t("emptyHint.create") : t(`emptyHint.${page.type}`)}
        </Text>
      </Stack>
    </Paper>
  );
}
