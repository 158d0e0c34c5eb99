import { Button, Code, CopyButton, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";

export interface HandoverCodeProps {
  code: string;
  /** What the code is, for screen readers ("Invitation code", "Reset code"). */
  label: string;
  /** Marks the code for tests, e.g. `{ "data-invitation-code": true }`. */
  attributes?: Record<`data-${string}`, string | boolean>;
}

/**
 * A code an administrator passes on by another channel (an invitation's, a key reset's): shown
 * large, with a button that copies it.
 */
export function HandoverCode({ code, label, attributes }: HandoverCodeProps) {
  const { t } = useTranslation("common");
  return (
    <Group>
      <Code fz="xl" fw={700} p="md" aria-label={label} {...attributes}>
        {code}
      </Code>
      <CopyButton value={code}>
        {({ copied, copy }) => (
          <Button variant="light" onClick={copy}>
            {copied ? t("copied") : t("copyCode")}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
