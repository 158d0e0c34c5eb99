import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { certifyOffer } from "./certify-offer";
import { ns } from "./i18n";

/** The offer to go to Administration's certification panel, after the setup administrator's browser published the root (certify-offer.ts). */
export function CertifyOffer() {
  const { t } = useTranslation(ns);
  const navigate = useNavigate();
  const shown = certifyOffer.use();
  return (
    <Modal opened={shown !== null} onClose={certifyOffer.clear} title={t("certifyOffer.title")} centered data-certify-offer>
      <Stack>
        <Text>{t("certifyOffer.text", { count: shown?.count ?? 0 })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={certifyOffer.clear}>
            {t("certifyOffer.later")}
          </Button>
          <Button
            onClick={() => {
              certifyOffer.clear();
              void navigate("/instanceadmin/?certify=1");
            }}
          >
            {t("certifyOffer.go")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
