import { Center, Loader } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** While the first screen's code loads (its route is lazy). */
export function PageLoader() {
  const { t } = useTranslation("common");
  return (
    <Center mih="100vh">
      <Loader aria-label={t("loading")} />
    </Center>
  );
}
