import { Menu } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { logoutAndReload, type LogoutKind } from "../../lib/logout";

/** The three ways out (spec 000 §2), as items of whichever menu offers them. */
export function LogoutItems() {
  const { t } = useTranslation();
  const out = (kind: LogoutKind) => () => void logoutAndReload(kind);
  return (
    <>
      <Menu.Item onClick={out("logout")}>{t("shell.logoutPlain")}</Menu.Item>
      <Menu.Item onClick={out("keep-cache")}>{t("shell.logoutKeepCache")}</Menu.Item>
      <Menu.Item color="red" onClick={out("wipe")}>
        {t("shell.logoutWipe")}
      </Menu.Item>
    </>
  );
}
