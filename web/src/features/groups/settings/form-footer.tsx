import { Button, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ns } from "../i18n";

/** A form's error under its fields, read out when it appears. */
export function TextError({ text }: { text: string }) {
  return (
    <div role="alert" style={{ color: "var(--mantine-color-error)", fontSize: "var(--mantine-font-size-sm)" }}>
      {text}
    </div>
  );
}

/** A settings popup's end: its error, if any, then Cancel and Save (Enter submits the form, Escape closes the popup). */
export function FormFooter({ error, onCancel, busy }: { error?: string | null; onCancel: () => void; busy: boolean }) {
  const { t } = useTranslation(ns);
  return (
    <>
      {error ? <TextError text={error} /> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t("settings.cancel")}
        </Button>
        <Button type="submit" loading={busy}>
          {t("settings.save")}
        </Button>
      </Group>
    </>
  );
}
