import type { ReactNode } from "react";
import { useRequiredSession } from "../../lib/session";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { KeyPopup } from "./key-popup";

/**
 * Shows its children only once the signed-in user's account keys are unlocked in memory; until
 * then the secure-key popup, which nothing but a loaded key or a logout closes.
 */
export function KeyGate({ children }: { children: ReactNode }) {
  const session = useRequiredSession();
  const unlocked = useUnlockedKeys();
  if (unlocked?.uid === session.id) return children;
  return <KeyPopup key={session.id} uid={session.id} />;
}
