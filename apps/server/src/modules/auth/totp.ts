import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

/** RFC 6238 with the apps' defaults: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI and its QR code (an SVG data URL: an <img> source, never inline markup). */
export async function totpEnrolment(secret: string, issuer: string, label: string) {
  const uri = generateURI({ issuer, label, secret });
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a code is good for, or undefined. One step either side is accepted (a phone's
 * clock a little off, a code typed as it changes); a step at or before `afterStep` is refused,
 * so an accepted code cannot be used again.
 */
export function totpStep(secret: string, code: string, epochSeconds: number, afterStep: number | null) {
  const result = verifySync({
    secret,
    token: code,
    epoch: epochSeconds,
    epochTolerance: PERIOD,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : undefined;
}

/** For tests and the CLI: the code of a moment. */
export function totpCode(secret: string, epochSeconds: number): string {
  return generateSync({ secret, epoch: epochSeconds });
}
