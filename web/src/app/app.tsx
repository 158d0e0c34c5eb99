import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { createQueryClient } from "../lib/query-client";
import { queryKeys } from "../lib/query-keys";
import { getSession, subscribeSession } from "../lib/session";
import { router } from "./router";
import { createAppTheme, cssVariablesResolver } from "./theme";

export function App() {
  const [queryClient] = useState(createQueryClient);
  const { t, i18n } = useTranslation("common");
  const close = t("close");
  // The close buttons' names follow the interface language.
  const theme = useMemo(() => createAppTheme({ close }), [close, i18n.language]);

  // Whatever one account loaded must not show to the next; the instance's settings may stay.
  useEffect(
    () =>
      subscribeSession(() => {
        if (!getSession()) queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.instance()[0] });
      }),
    [queryClient],
  );

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
