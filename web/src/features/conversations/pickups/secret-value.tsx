import { Button, Code, CopyButton, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ns } from "../i18n";

/** A labelled value with a copy button (the right panel shows the same three). */
export function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation(ns);
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: "break-all" }} data-testid={testId}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button variant="subtle" size="compact-xs" onClick={copy} aria-label={t("pickups.copy", { what: label })}>
              {copied ? t("pickups.copied") : t("pickups.copyShort")}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
