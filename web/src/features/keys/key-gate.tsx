import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isGuest, readGuestPickup, useGuestKeys } from "../../lib/guest";
import { logoutAndReload } from "../../lib/logout";
import { useRequiredSession } from "../../lib/session";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { CertifyOffer } from "./certify-offer-modal";
import { KeyPopup } from "./key-popup";
import { useKeyWatch } from "./key-watch";
import { PickupPopup } from "./pickup-popup";
import { PinsWarning } from "./pins-warning";
import { ns } from "./i18n";

/**
 * Shows its children only once the signed-in user's account keys are unlocked in memory; until
 * then the secure-key popup, which nothing but a loaded key or a logout closes. A pickup's guest
 * has no account key: after a reload the popup's pickup state asks for the security code again.
 */
export function KeyGate({ children }: { children: ReactNode }) {
  const session = useRequiredSession();
  const unlocked = useUnlockedKeys();
  const guestKeys = useGuestKeys();
  useKeyWatch(unlocked?.uid === session.id ? unlocked : null);
  if (isGuest(session)) return guestKeys ? children : <GuestGate />;
  if (unlocked?.uid === session.id) {
    return (
      <>
        <PinsWarning />
        {children}
        <CertifyOffer />
      </>
    );
  }
  return <KeyPopup key={session.id} uid={session.id} />;
}

function GuestGate() {
  const { t } = useTranslation(ns);
  const [pickup] = useState(readGuestPickup);
  return <PickupPopup pickup={pickup} onCancel={() => void logoutAndReload("logout")} cancelLabel={t("logout")} />;
}
