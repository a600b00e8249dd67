import {
  backupJobDataSchema,
  backupsJobParamsSchema,
  backupsListDataSchema,
  backupsRestoreParamsSchema,
  backupsServiceParamsSchema,
} from '@panel247/contract/backups';
import type { Language } from '@panel247/contract/constants';
import type { ApiRouter } from '../../http/api-route.ts';
import { translate } from '../../i18n/messages.ts';
import type { BackupJobsService, BackupJobView } from './backup-jobs.service.ts';

function toJob(job: BackupJobView, language: Language) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    step: job.step,
    error: job.errorKey ? translate(language, job.errorKey) : '',
  };
}

/** The Backups view: reads answer GET and POST; starting a backup or a restore is POST. */
export function registerBackupRoutes(api: ApiRouter, backups: BackupJobsService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  api.session(
    { method: both, url: 'service/:id/backups/list/', params: backupsServiceParamsSchema, data: backupsListDataSchema },
    async ({ actor, params, language }) => {
      const data = await backups.list(actor, params.id);
      return { data: { ...data, job: data.job ? toJob(data.job, language) : null } };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/backups/run/', params: backupsServiceParamsSchema, data: backupJobDataSchema },
    async ({ actor, params, language }) => ({
      data: { job: toJob(await backups.startBackup(actor, params.id), language) },
      info: ['backup.started'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/backups/restore/',
      params: backupsRestoreParamsSchema,
      data: backupJobDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: { job: toJob(await backups.startRestore(actor, params.id, params), language) },
      info: ['backup.restore_started'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/backups/job/:jobId/', params: backupsJobParamsSchema, data: backupJobDataSchema },
    async ({ actor, params, language }) => ({
      data: { job: toJob(await backups.job(actor, params.id, params.jobId), language) },
    }),
  );
}
