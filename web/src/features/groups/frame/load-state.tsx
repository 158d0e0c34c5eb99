import { Center, Loader, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../lib/api";
import { ns } from "../i18n";

/** What a failed load of a group or page means to the user (spec 001 §4, §8). */
export function loadFailure(error: unknown): "notFound" | "forbidden" | "failed" {
  // A 422 is an id the server cannot read: no such content either.
  if (isApiError(error, 404) || isApiError(error, 422)) return "notFound";
  if (isApiError(error, 403)) return "forbidden";
  return "failed";
}

/** 'Talking to server...' while a group or page loads (spec 001 §2). */
export function TalkingToServer() {
  const { t } = useTranslation(ns);
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text role="status">{t("loading")}</Text>
      </Stack>
    </Center>
  );
}

/** The text of a failed load: not found, not allowed (a 403), or the area's own error. */
export function LoadFailed({ error, what }: { error: unknown; what: "group" | "page" }) {
  const { t } = useTranslation([ns, "errors"]);
  const kind = loadFailure(error);
  const text =
    kind === "notFound" ? t("errors:not_found") : kind === "forbidden" ? t("errors:page_forbidden") : what === "group" ? t("errors:group_not_found") : t("errors:page_not_found");
  return <StateText text={text} alert={kind !== "notFound"} />;
}

export function StateText({ text, alert = false }: { text: string; alert?: boolean }) {
  return (
    <Text py="md" role={alert ? "alert" : undefined} data-group-state>
      {text}
    </Text>
  );
}
