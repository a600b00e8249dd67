import type { Db } from '../../db/database.ts';
import { QuotaError } from '../../errors.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { backupsRepository } from './backups.repository.ts';

/** What a service's backups hold (the data its snapshots added), and its plan's room for them (null: none). */
export async function backupRoom(db: Db, serviceId: number): Promise<{ used: number; limit: number | null }> {
  const room = (await planLimits.of(db, serviceId)).backupMb;
  return { used: await backupsRepository.usage(db, serviceId), limit: room === null ? null : room * 1024 * 1024 };
}

/** A new backup is refused once the service's backups fill its plan's room. */
export async function ensureBackupRoom(db: Db, serviceId: number): Promise<void> {
  const { used, limit } = await backupRoom(db, serviceId);
  if (limit !== null && used >= limit) throw new QuotaError('backup.error.quota', { limit: limit / (1024 * 1024) });
}
