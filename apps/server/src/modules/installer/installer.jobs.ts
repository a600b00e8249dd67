import { z } from 'zod';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { defineJob } from '../../jobs/job-kind.ts';

/**
 * One application install (InstallerService.run), decided and checked while the call was
 * answered: the job carries where it goes and the template values, sealed (they hold the
 * database's and the application's passwords, and the job's payload is kept in the database).
 * A service's installs run one at a time in the order asked. Not retried: an install whose
 * instance died may have renamed its folder into place already, so it is reported interrupted
 * rather than tried over it.
 */
export const INSTALL_APPLICATION = defineJob({
  name: 'installer.install',
  payload: z.object({
    jobId: z.string().regex(/^[0-9a-f]{32}$/),
    serviceId: z.number().int().positive(),
    domain: z.string().min(1).max(253),
    appId: z.number().int().positive(),
    folder: z.string().max(4096),
    url: z.string().max(2048),
    sealedValues: z.string().max(65_536),
  }),
  policy: 'ordered',
  key: (install) => `service-${install.serviceId}`,
  retry: { limit: 0, delaySeconds: 60, backoff: false },
  expireSeconds: 3600,
  onServer: { role: 'web', serviceId: (install) => install.serviceId },
});

export type InstallOrder = z.infer<typeof INSTALL_APPLICATION.payload>;

/** Binds installs to the installer (the composition root calls it). */
export async function workInstalls(
  jobs: JobEngine,
  installer: { run(order: InstallOrder): Promise<void> },
): Promise<void> {
  await jobs.work(INSTALL_APPLICATION, (order) => installer.run(order), { concurrency: 2 });
}
