import { BACKUP_JOB_STEPS, type BackupJob } from '@panel247/contract/backups';

export function jobEnded(job: BackupJob | null | undefined): boolean {
  return job?.status === 'done' || job?.status === 'failed';
}

/** A job that still holds the service: another backup or restore would be refused meanwhile. */
export function jobActive(job: BackupJob | null | undefined): boolean {
  return job?.status === 'queued' || job?.status === 'running';
}

/**
 * The i18n key of the job's step in words. A job not yet started has no step (''), and a step
 * this web app does not know yet (a newer server) reads as the job's status, so it is never blank.
 */
export function jobStepKey(job: BackupJob): string {
  const step = job.step || job.status;
  return (BACKUP_JOB_STEPS as readonly string[]).includes(step) ? `backups.step.${step}` : 'backups.step.running';
}
