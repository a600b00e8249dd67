import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * One site's certificate ordered and installed (CertificateService.order). A failure the CA or
 * the checks give is recorded on the site's certificate and shown there (the renewal round tries
 * it again later); the engine retries only what broke before that could be recorded.
 */
export const ORDER_SITE_CERTIFICATE = defineJob({
  name: 'certificates.order-site',
  payload: z.object({ serviceId: z.number().int().positive(), siteId: z.number().int().positive() }),
  policy: 'once',
  key: (order) => `site-${order.siteId}`,
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireSeconds: 900,
  // ACME's HTTP challenge is answered by the site's own web server
  onServer: { role: 'web', serviceId: (order) => order.serviceId },
});

/** One of the mail daemons' certificates (MailCertificateService.order), by its first host. */
export const ORDER_MAIL_CERTIFICATE = defineJob({
  name: 'certificates.order-mail',
  payload: z.object({ name: z.string().min(1).max(253) }),
  policy: 'once',
  key: (order) => order.name,
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireSeconds: 900,
});

/** Binds the order kinds to the services that run them (the composition root calls it). */
export async function workCertificateOrders(
  jobs: JobEngine,
  orders: { site(serviceId: number, siteId: number): Promise<void>; mail(name: string): Promise<void> },
): Promise<void> {
  await jobs.work(ORDER_SITE_CERTIFICATE, (order) => orders.site(order.serviceId, order.siteId), { concurrency: 2 });
  await jobs.work(ORDER_MAIL_CERTIFICATE, (order) => orders.mail(order.name));
}
