import { Button, Center, Stack, Text } from "@mantine/core";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router";

/** The last resort for a render error: say so and offer a reload, never a blank page. */
export function RouteError() {
  const { t } = useTranslation("common");
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return (
    <Center mih="100vh" p="md">
      <Stack align="center">
        <Text>{t("unexpected")}</Text>
        <Button onClick={() => window.location.reload()}>{t("reload")}</Button>
      </Stack>
    </Center>
  );
}
