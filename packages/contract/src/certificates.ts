import { z } from 'zod';
import { idParam } from './fields.ts';

/** How the CA checks that the site is ours: a file nginx serves (HTTP-01) or a TXT record (DNS-01). */
export const ACME_CHALLENGES = ['http-01', 'dns-01'] as const;

/** The steps of an automatic certificate, in order; `failed` keeps the reason and whatever was installed. */
export const CERTIFICATE_STATES = ['queued', 'ordered', 'validating', 'issued', 'installed', 'failed'] as const;

/** A site's automatic certificate (null: its SSL is off or an uploaded certificate). */
export const siteCertificateSchema = z.object({
  challenge: z.enum(ACME_CHALLENGES),
  /** Also `*.<the site's host>` (DNS-01 only). */
  wildcard: z.boolean(),
  state: z.enum(CERTIFICATE_STATES),
  /** Why the last order failed, in the user's language ('' when it did not). */
  error: z.string(),
  /** Epoch seconds the installed certificate ends; 0 before the first. */
  expiresAt: z.number().int(),
});
export type SiteCertificate = z.infer<typeof siteCertificateSchema>;

export const siteCertificateParamsSchema = z.object({ id: idParam, sid: idParam });
export const siteCertificateAutoParamsSchema = z.object({
  id: idParam,
  sid: idParam,
  challenge: z.enum(ACME_CHALLENGES, { error: 'validation.invalid' }).optional().default('http-01'),
  wildcard: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .optional()
    .transform((value) => value === true || value === 'true' || value === '1'),
});
export type SiteCertificateAutoParams = z.input<typeof siteCertificateAutoParamsSchema>;

export const siteCertificateDataSchema = z.object({ certificate: siteCertificateSchema.nullable() });
export type SiteCertificateData = z.infer<typeof siteCertificateDataSchema>;
