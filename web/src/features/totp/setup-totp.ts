import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/**
 * POST /api/verification/totpSetup with {}: a new pending secret and its otpauth:// URI, which
 * the browser draws as the QR code (an image data URL) for the authenticator app to scan.
 */
export async function startTotpSetup(): Promise<{ qr: string; secret: string }> {
  const answer = await call("POST /api/verification/totpSetup", { body: {} });
  if (!("qr" in answer)) throw new Error("totpSetup answered without a QR code");
  const { default: QRCode } = await import("qrcode");
  return { qr: await QRCode.toDataURL(answer.qr, { errorCorrectionLevel: "M", margin: 2, width: 240 }), secret: answer.secret };
}

/** POST /api/verification/totpSetup with the secret and a code: 2FA on, recovery codes once. */
export async function finalizeTotpSetup(input: { secret: string; code: string }): Promise<string[]> {
  const answer = await call("POST /api/verification/totpSetup", { body: { totp_secret: input.secret, totp_verify: input.code } });
  if (!("recovery" in answer)) throw new Error("totpSetup answered without recovery codes");
  return answer.recovery;
}

export function useStartTotpSetup() {
  return useMutation({ mutationFn: startTotpSetup });
}

export function useFinalizeTotpSetup(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: finalizeTotpSetup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.one(userId) }),
  });
}
