import { Alert, Button, Code, CopyButton, Group, List, Stack, Text, Title } from "@mantine/core";
import { formatRecoveryCode } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { useInstance } from "../../lib/instance";
import { ns } from "./i18n";

/** State now-on: the recovery codes, shown this once, to copy or download; Finish goes back to settings. */
export function RecoveryCodes({ codes, onFinish }: { codes: string[]; onFinish: () => void }) {
  const { t } = useTranslation(ns);
  const { title } = useInstance();
  const formatted = codes.map(formatRecoveryCode);
  const text = [t("recoveryFileTitle", { title }), "", ...formatted, ""].join("\n");

  return (
    <Stack>
      <Alert color="green">{t("nowOn")}</Alert>
      <Title order={2} size="h3">
        {t("recoveryHeading")}
      </Title>
      <Text>{t("recoveryIntro")}</Text>
      <List aria-label={t("recoveryHeading")} listStyleType="none" spacing={4}>
        {formatted.map((code) => (
          <List.Item key={code}>
            <Code fz="md">{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t("copied") : t("copy")}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" component="a" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
          {t("download")}
        </Button>
      </Group>
      <Group>
        <Button onClick={onFinish}>{t("finish")}</Button>
      </Group>
    </Stack>
  );
}
