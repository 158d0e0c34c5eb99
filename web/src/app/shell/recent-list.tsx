import { Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { RecentConversations } from "../../features/conversations/recent-conversations"; // conversations
import { useFeature } from "../../lib/instance";
import { ns } from "../i18n";

/** Recently visited places (spec 000 §2): the conversations opened last, or 'Nothing recent!'. */
export function RecentList() {
  const { t } = useTranslation(ns);
  const conversations = useFeature("convo") === true;
  const nothing = (
    <Text size="xs" c="dimmed">
      {t("nothingRecent")}
    </Text>
  );
  return (
    <Stack gap={4} component="section" aria-label={t("recently")}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {t("recently")}
      </Text>
      {conversations ? <RecentConversations empty={nothing} /> : nothing}
    </Stack>
  );
}
