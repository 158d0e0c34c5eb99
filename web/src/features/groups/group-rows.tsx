import { Badge, Box, Group, Loader, NavLink, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { errorText } from "../../lib/error-text";
import { useUserGroups } from "./list-user-groups";
import { ns } from "./i18n";

/**
 * Home's group list (spec 000 §2): each group with its member count and a preview of the
 * messages waiting in its conversation (`outstanding`, by group id).
 */
export function GroupRows() {
  const { t } = useTranslation([ns, "errors"]);
  const { data, isPending, isError, error } = useUserGroups();
  if (isPending) return <Loader size="sm" aria-label={t("loading")} />;
  if (isError) return <Text role="alert">{errorText(error, t("errors:group_not_found"))}</Text>;
  if (data.groups.length === 0) {
    return (
      <>
        <Text fw={500}>{t("home.none")}</Text>
        <Text size="sm" c="dimmed">
          {t("home.noneHint")}
        </Text>
      </>
    );
  }
  return (
    <Stack gap={2} role="list" aria-label={t("home.list")}>
      {data.groups.map((group) => {
        const waiting = data.outstanding[String(group.id)] ?? 0;
        return (
          <Box key={group.id} role="listitem">
            <NavLink
              component={Link}
              to={`/group/${group.id}`}
              label={group.name}
              description={
                <Group gap="xs" component="span">
                  <Text span size="xs" c="dimmed">
                    {t("home.members", { count: group.membercount })}
                  </Text>
                  <Text span size="xs" c={waiting > 0 ? undefined : "dimmed"} fw={waiting > 0 ? 600 : undefined}>
                    {waiting > 0 ? t("home.waiting", { count: waiting }) : t("home.noWaiting")}
                  </Text>
                </Group>
              }
              rightSection={group.am_admin ? <Badge size="xs" variant="light">{t("home.admin")}</Badge> : null}
            />
          </Box>
        );
      })}
    </Stack>
  );
}
