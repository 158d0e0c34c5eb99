import { Alert, Button, Code, CopyButton, Group, List, Stack, Text, Title } from "@mantine/core";
import { formatRecoveryCode } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { useInstance } from "../../lib/instance";

/** State now-on: the recovery codes, shown this once, to copy or download; Finish goes back to settings. */
export function RecoveryCodes({ codes, onFinish }: { codes: string[]; onFinish: () => void }) {
  const { t } = useTranslation();
  const { title } = useInstance();
  const formatted = codes.map(formatRecoveryCode);
  const text = [t("totp.recoveryFileTitle", { title }), "", ...formatted, ""].join("\n");

  return (
    <Stack>
      <Alert color="green">{t("totp.nowOn")}</Alert>
      <Title order={2} size="h3">
        {t("totp.recoveryHeading")}
      </Title>
      <Text>{t("totp.recoveryIntro")}</Text>
      <List aria-label={t("totp.recoveryHeading")} listStyleType="none" spacing={4}>
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
              {copied ? t("totp.copied") : t("totp.copy")}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" component="a" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
          {t("totp.download")}
        </Button>
      </Group>
      <Group>
        <Button onClick={onFinish}>{t("totp.finish")}</Button>
      </Group>
    </Stack>
  );
}
