import { Menu } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { logoutAndReload, type LogoutKind } from "../../lib/logout";
import { ns } from "../i18n";

/** The three ways out (spec 000 §2), as items of whichever menu offers them. */
export function LogoutItems() {
  const { t } = useTranslation(ns);
  const out = (kind: LogoutKind) => () => void logoutAndReload(kind);
  return (
    <>
      <Menu.Item onClick={out("logout")}>{t("logoutPlain")}</Menu.Item>
      <Menu.Item onClick={out("keep-cache")}>{t("logoutKeepCache")}</Menu.Item>
      {/* Red, dark enough to read on the item's hover background (Mantine's red item is red 6, 3.3:1). */}
      <Menu.Item c="red.9" onClick={out("wipe")}>
        {t("logoutWipe")}
      </Menu.Item>
    </>
  );
}
