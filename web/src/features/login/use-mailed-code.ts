import { useEffect, useRef } from "react";
import { sendVerificationErrorText } from "./login-errors";

interface Sender<Body> {
  mutate: (body: Body, options: { onError: (error: unknown) => void }) => void;
  isPending: boolean;
}

/**
 * A code mailed to the contact once when the step opens (registration, a forgotten password),
 * and again on request. The ref keeps React's development double effects from sending two.
 */
export function useMailedCode<Body>(sender: Sender<Body>, body: Body, onError: (message: string) => void) {
  const sent = useRef(false);
  const send = () => sender.mutate(body, { onError: (error) => onError(sendVerificationErrorText(error)) });
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    send();
  });
  return { resend: send, sending: sender.isPending };
}
