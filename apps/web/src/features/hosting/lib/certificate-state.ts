import type { CERTIFICATE_STATES, SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';

export type CertificateState = (typeof CERTIFICATE_STATES)[number];

/** A site's SSL as the dialog offers it: off, a certificate the customer uploads, or automatic. */
export type SslMode = 'off' | 'manual' | 'auto';

/** The steps an order shows, in order (queued comes before the first). */
export const ORDER_STEPS = ['ordered', 'validating', 'issued', 'installed'] as const;

/** The order is still on its way: the page keeps asking. */
export function orderRunning(state: CertificateState | undefined): boolean {
  return state === 'queued' || state === 'ordered' || state === 'validating' || state === 'issued';
}

/** How far the order went: the index of its step in ORDER_STEPS (-1 while queued, or failed). */
export function stepIndex(state: CertificateState): number {
  return (ORDER_STEPS as readonly string[]).indexOf(state);
}

/** The status dot's colour (spec 1's model: green when fine, red when it went wrong). */
export function certificateColor(certificate: SiteCertificate, now: number): 'green' | 'red' | 'blue' {
  if (certificate.state === 'failed') return 'red';
  if (certificate.state === 'installed')
    return certificate.expiresAt > 0 && certificate.expiresAt < now ? 'red' : 'green';
  return 'blue';
}

/** Which SSL choice a site is on now. */
export function sslModeOf(site: Subdomain | null, certificate: SiteCertificate | null | undefined): SslMode {
  if (certificate) return 'auto';
  return site?.ssl.enabled ? 'manual' : 'off';
}
