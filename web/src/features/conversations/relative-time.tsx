import { Text, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNow } from "../../lib/use-now";
import { exactTime, relativeTime } from "./conversation-time";

/**
 * "5 minutes ago" in the interface language, refreshed while the page stays open, with the
 * exact time (de-CH) as tooltip and as the time element's machine-readable value.
 */
export function RelativeTime({ seconds }: { seconds: number }) {
  const { i18n } = useTranslation();
  const now = useNow();
  return (
    <Tooltip label={exactTime(seconds)}>
      <Text component="time" dateTime={new Date(seconds * 1000).toISOString()} size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
        {relativeTime(seconds, i18n.language, now)}
      </Text>
    </Tooltip>
  );
}
