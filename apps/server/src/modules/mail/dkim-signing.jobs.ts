import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * A mail domain's active DKIM keys to the signer (OpenDKIM's key files on the mail node). Once per
 * service: the job reads the keys when it runs, so changes made while one waits go with it.
 * Retried like a service's changes (a signer's folder that cannot be written for a while).
 */
export const GIVE_DKIM_KEYS = defineJob({
  name: 'dkim.give-keys',
  payload: z.object({
    serviceId: z.number().int().positive(),
    /** The mail domain as the signer names it (punycode). */
    domain: z.string().min(1).max(253),
  }),
  policy: 'once',
  key: (target) => `service-${target.serviceId}`,
  retry: { limit: 12, delaySeconds: 2, backoff: true, maxDelaySeconds: 600 },
  expireSeconds: 300,
  onServer: { role: 'mail', serviceId: (target) => target.serviceId },
});

export type DkimKeysTarget = z.infer<typeof GIVE_DKIM_KEYS.payload>;

/** Binds the signer's jobs to the mail node's worker (node-work.ts). */
export async function workDkimSigning(
  jobs: JobEngine,
  signing: { give(target: DkimKeysTarget): Promise<void> },
): Promise<void> {
  await jobs.work(GIVE_DKIM_KEYS, (target) => signing.give(target));
}
