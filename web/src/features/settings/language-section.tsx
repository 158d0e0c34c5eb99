import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { currentLanguage, LANGUAGES, setLanguage, type Language } from "../../lib/i18n";
import { ns } from "./i18n";

export function LanguageSection() {
  // useTranslation re-renders this on a language change, so the value stays current.
  const { t } = useTranslation([ns, "common"]);
  const value = currentLanguage();
  return (
    <NativeSelect
      label={t("language")}
      value={value}
      onChange={(event) => setLanguage(event.currentTarget.value as Language)}
      data={LANGUAGES.map((language) => ({ value: language, label: t(`common:languages.${language}`) }))}
      maw={240}
    />
  );
}
