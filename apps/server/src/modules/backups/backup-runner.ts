import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { worthRetrying } from '../../jobs/retry-worth.ts';
import type { Logger } from '../../logger.ts';
import type { BackupService, BackupStep, RestoreTarget } from './backup.service.ts';
import type { BackupRun, DailyBackupRun } from './backup-jobs.ts';
import { backupsRepository } from './backups.repository.ts';

/**
 * A backup's or a restore's work on the service's node (BACKUP_RUN's handler), and the daily run
 * of every service (BACKUP_DAILY's): the backup, or the
 * restore its row describes, with each step written to the row the page follows. A refusal the
 * customer can act on fails the job at once; a daemon's failure is retried by the engine, and
 * fails the job on the last try.
 */
export class BackupRunner {
  constructor(
    private readonly db: Db,
    private readonly backups: BackupService,
    private readonly now: () => number,
    private readonly log: Pick<Logger, 'error' | 'info'>,
  ) {}

  async run(target: BackupRun, lastTry: boolean): Promise<void> {
    const row = await backupsRepository.job(this.db, target.serviceId, target.jobId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
    const { jobId } = target;
    const step = (name: BackupStep) =>
      backupsRepository.updateJob(this.db, jobId, { step: name, updated_at: this.now() }).then(() => undefined);
    try {
      await backupsRepository.updateJob(this.db, jobId, { status: 'running', updated_at: this.now() });
      const service = await this.backups.serviceById(target.serviceId);
      if (row.kind === 'backup') {
        await this.backups.prepareRepository(service);
        await this.backups.backupService(service, step);
      } else {
        const restore = JSON.parse(row.target) as { snapshot: string; target: RestoreTarget };
        await this.backups.restorePart(service, restore.snapshot, restore.target, step);
      }
      await backupsRepository.updateJob(this.db, jobId, { status: 'done', step: 'done', updated_at: this.now() });
    } catch (error) {
      this.log.error({ err: error, event: 'backup.job_failed', job: jobId }, 'backup job failed');
      if (worthRetrying(error) && !lastTry) throw error;
      const key = error instanceof AppError ? error.messageKey : 'error.internal';
      await backupsRepository.updateJob(this.db, jobId, { status: 'failed', error_key: key, updated_at: this.now() });
    }
  }

  /** The day's run of every service (BACKUP_DAILY): a service that fails is reported and the others go on. */
  async daily(run: DailyBackupRun): Promise<void> {
    const runs = await this.backups.runAll();
    const failed = runs.filter((one) => !one.snapshot).length;
    this.log.info({ event: 'backup.daily', day: run.day, services: runs.length, failed }, 'daily backup');
  }
}
