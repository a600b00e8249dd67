import type { PanelBase } from '../../composition/panel-base.ts';
import type { BackupService } from '../backups/backup.service.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import { ProviderIdempotency } from './provider-idempotency.ts';
import { ServiceTerminations } from './service-termination.ts';

/** How long a termination waits for one server's removal before its job tries again later. */
const SERVER_WAIT_MS = 5 * 60_000;

/**
 * The terminations of this configuration: the API starts them and follows them, the control
 * plane's agent runs them (its backups built at the first one).
 */
export function createServiceTerminations(
  base: Pick<PanelBase, 'config' | 'db' | 'now' | 'jobs' | 'dnsDriver'>,
  backups: () => Promise<Pick<BackupService, 'lastBackup'>>,
): ServiceTerminations {
  const { config, db, now } = base;
  return new ServiceTerminations({
    db,
    now,
    jobs: base.jobs,
    backups,
    dns: base.dnsDriver,
    ownerOf: serviceFileOwner(db, config),
    idempotency: new ProviderIdempotency(db, now),
    keepDays: config.backups.terminatedKeepDays,
    serverWaitMs: SERVER_WAIT_MS,
  });
}
