import { type BackupSnapshot as BackupSnapshotDto, backupHoldsSchema } from '@panel247/contract/backups';
import { isActionable } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { ConflictError, FieldErrors, NotFoundError } from '../../errors.ts';
import type { JobEngine } from '../../jobs/job-engine.ts';
import { newWorkIds, workLost } from '../../jobs/recorded-work.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { BackupService, RestoreTarget, Service } from './backup.service.ts';
import { BACKUP_RUN } from './backup-jobs.ts';
import { backupRoom, ensureBackupRoom } from './backup-room.ts';
import { backupsRepository } from './backups.repository.ts';

/** A job as the service layer answers it; the route translates `errorKey`. */
export interface BackupJobView {
  id: string;
  kind: 'backup' | 'restore';
  status: 'queued' | 'running' | 'done' | 'failed';
  step: string;
  errorKey: string;
}

export interface RestoreRequest {
  snapshot: string;
  what: 'service' | 'files' | 'mailbox' | 'database' | 'dns';
  path: string;
  toFolder: string;
  mailbox: string;
  /** One folder of the mailbox (`.Sent`); '' for all of it. */
  mailFolder: string;
  database: string;
  /** A database's dump into a new database instead of over the one it came from. */
  newDatabase: boolean;
  overwrite: boolean;
}

/**
 * The Backups view of a service: its snapshots (from the panel's record, without reading the
 * repository), a backup now and a restore, each a job of the work log (BACKUP_RUN) that runs
 * after the call answers and whose row the page follows. Seeing takes the backups right's
 * visibility, acting its action. One job per service at a time; a job whose instance died is run
 * again by the engine, and one the engine gave up on without its row hearing of it is shown failed.
 * The work itself is the node's (BackupRunner).
 */
export class BackupJobsService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly backups: BackupService,
    private readonly now: () => number,
    private readonly jobs: Pick<JobEngine, 'send' | 'find'>,
  ) {}

  private async service(actor: Actor, id: number, need: 'visible' | 'action') {
    const resource = await this.permissions.authorize(actor, id, 'service_backups', need);
    if (!resource.hasService) throw new NotFoundError();
    return { resource, service: await this.backups.serviceById(id) };
  }

  private toView(row: { id: string; kind: string; status: string; step: string; error_key: string }): BackupJobView {
    return {
      id: row.id,
      kind: row.kind as BackupJobView['kind'],
      status: row.status as BackupJobView['status'],
      step: row.step,
      errorKey: row.error_key,
    };
  }

  async list(actor: Actor, id: number) {
    const { resource } = await this.service(actor, id, 'visible');
    const rows = await backupsRepository.snapshots(this.db, id);
    const snapshots: BackupSnapshotDto[] = rows.map((row) => ({
      id: row.snapshot_id,
      time: Number(row.created_at),
      size: Number(row.size_bytes),
      added: Number(row.added_bytes),
      holds: backupHoldsSchema.parse(JSON.parse(row.holds)),
    }));
    const live = await this.liveJob(id);
    const room = await backupRoom(this.db, id);
    return {
      snapshots,
      usage: room.used,
      // no limit is shown as 0, as the overview's sizes
      limit: room.limit ?? 0,
      writable: isActionable(resource.levels.service_backups),
      job: live ? this.toView(live) : null,
    };
  }

  async job(actor: Actor, id: number, jobId: string): Promise<BackupJobView> {
    await this.service(actor, id, 'visible');
    const row = await backupsRepository.job(this.db, id, jobId);
    if (!row) throw new NotFoundError();
    return this.toView(await this.reconciled(row));
  }

  /** The service's queued or running job, if its work is still in the engine. */
  private async liveJob(serviceId: number) {
    const row = await backupsRepository.liveJob(this.db, serviceId);
    if (!row) return undefined;
    const current = await this.reconciled(row);
    return current.status === 'queued' || current.status === 'running' ? current : undefined;
  }

  /**
   * A row still queued or running whose job the engine no longer holds open (it gave up after its
   * instance died on the last try, or the job never reached it) can never end by itself: it is
   * recorded as failed, which frees the service for the next job.
   */
  private async reconciled<T extends { id: string; service_id: number; status: string; created_at: number | string }>(
    row: T,
  ) {
    if (row.status !== 'queued' && row.status !== 'running') return row;
    if (!(await workLost(this.jobs, BACKUP_RUN, row, this.now()))) return row;
    await backupsRepository.failUnfinished(this.db, row.id, 'backup.error.interrupted', this.now());
    return (await backupsRepository.job(this.db, row.service_id, row.id)) ?? row;
  }

  async startBackup(actor: Actor, id: number): Promise<BackupJobView> {
    const { service } = await this.service(actor, id, 'action');
    await ensureBackupRoom(this.db, id);
    return this.launch(actor, service, 'backup', '');
  }

  async startRestore(actor: Actor, id: number, request: RestoreRequest): Promise<BackupJobView> {
    const { service } = await this.service(actor, id, 'action');
    const known = (await backupsRepository.snapshots(this.db, id)).find((row) =>
      row.snapshot_id.startsWith(request.snapshot),
    );
    if (!known) throw new NotFoundError('backup.error.snapshot');
    const target = this.target(request);
    const intoNew = (target.kind === 'files' && target.toFolder) || (target.kind === 'database' && target.intoNew);
    if (!intoNew && !request.overwrite) throw FieldErrors.one('overwrite', 'backup.error.confirm');
    return this.launch(actor, service, 'restore', JSON.stringify({ snapshot: known.snapshot_id, target }));
  }

  private target(request: RestoreRequest): RestoreTarget {
    switch (request.what) {
      case 'service':
        return { kind: 'service' };
      case 'files':
        return { kind: 'files', path: request.path, toFolder: request.toFolder || undefined };
      case 'mailbox':
        if (request.mailbox === '') throw FieldErrors.one('mailbox', 'validation.required');
        return { kind: 'mailbox', localPart: request.mailbox, folder: request.mailFolder || undefined };
      case 'database':
        if (request.database === '') throw FieldErrors.one('database', 'validation.required');
        return { kind: 'database', name: request.database, intoNew: request.newDatabase };
      case 'dns':
        return { kind: 'dns' };
    }
  }

  /** Records the job and sends its work; answers at once (the page follows the row). */
  private async launch(
    actor: Actor,
    service: Service,
    kind: 'backup' | 'restore',
    target: string,
  ): Promise<BackupJobView> {
    if (await this.liveJob(service.id)) throw new ConflictError('backup.error.busy');
    const { rowId: id, workId } = newWorkIds();
    const now = this.now();
    await backupsRepository.insertJob(this.db, {
      id,
      user_id: actor.userId,
      service_id: service.id,
      kind,
      target,
      status: 'queued',
      created_at: now,
      updated_at: now,
    });
    await this.jobs.send(BACKUP_RUN, { jobId: id, serviceId: service.id }, { id: workId });
    return { id, kind, status: 'queued', step: '', errorKey: '' };
  }
}
