import { randomBytes } from 'node:crypto';
import { type BackupSnapshot as BackupSnapshotDto, backupHoldsSchema } from '@panel247/contract/backups';
import { isActionable } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { AppError, ConflictError, FieldErrors, NotFoundError, QuotaError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { BackupService, BackupStep, RestoreTarget, Service } from './backup.service.ts';
import { backupsRepository } from './backups.repository.ts';

/** A job's heartbeat: written this often while it runs; one silent for HEARTBEAT_DEAD is dead. */
const HEARTBEAT_SECONDS = 15;
const HEARTBEAT_DEAD = 120;

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
 * repository), a backup now and a restore, each a job that runs after the call answers and that
 * the page follows. Seeing takes the backups right's visibility, acting its action. One job per
 * service at a time; a job whose instance died stops beating and may be started again (a restore
 * repeated is harmless: it copies over what is there).
 */
export class BackupJobsService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly backups: BackupService,
    private readonly settings: { quotaBytes: number },
    private readonly now: () => number,
    private readonly log: (error: unknown, job: string) => void,
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
    const live = await backupsRepository.liveJob(this.db, id, this.now() - HEARTBEAT_DEAD);
    return {
      snapshots,
      usage: await backupsRepository.usage(this.db, id),
      limit: this.settings.quotaBytes,
      writable: isActionable(resource.levels.service_backups),
      job: live ? this.toView(live) : null,
    };
  }

  async job(actor: Actor, id: number, jobId: string): Promise<BackupJobView> {
    await this.service(actor, id, 'visible');
    const row = await backupsRepository.job(this.db, id, jobId);
    if (!row) throw new NotFoundError();
    return this.toView(row);
  }

  async startBackup(actor: Actor, id: number): Promise<BackupJobView> {
    const { service } = await this.service(actor, id, 'action');
    if ((await backupsRepository.usage(this.db, id)) >= this.settings.quotaBytes)
      throw new QuotaError('backup.error.quota');
    return this.launch(actor, service, 'backup', '', async (step) => {
      await this.backups.prepareRepository(service);
      await this.backups.backupService(service, step);
    });
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
    return this.launch(actor, service, 'restore', JSON.stringify(target), (step) =>
      this.backups.restorePart(service, known.snapshot_id, target, step),
    );
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

  /**
   * Records the job, answers at once, and runs it: its step and heartbeat go to the database as
   * it goes, so any instance can answer the page that follows it.
   */
  private async launch(
    actor: Actor,
    service: Service,
    kind: 'backup' | 'restore',
    target: string,
    work: (step: (step: BackupStep) => Promise<void>) => Promise<unknown>,
  ): Promise<BackupJobView> {
    if (await backupsRepository.liveJob(this.db, service.id, this.now() - HEARTBEAT_DEAD)) {
      throw new ConflictError('backup.error.busy');
    }
    const id = randomBytes(16).toString('hex');
    const now = this.now();
    await backupsRepository.insertJob(this.db, {
      id,
      user_id: actor.userId,
      service_id: service.id,
      kind,
      target,
      status: 'running',
      created_at: now,
      updated_at: now,
    });
    const beat = setInterval(() => {
      void backupsRepository.updateJob(this.db, id, { updated_at: this.now() }).catch(() => undefined);
    }, HEARTBEAT_SECONDS * 1000);
    beat.unref();
    const step = (name: BackupStep) =>
      backupsRepository.updateJob(this.db, id, { step: name, updated_at: this.now() }).then(() => undefined);
    void work(step)
      .then(() => backupsRepository.updateJob(this.db, id, { status: 'done', step: 'done', updated_at: this.now() }))
      .catch((error: unknown) => {
        this.log(error, id);
        const key = error instanceof AppError ? error.messageKey : 'error.internal';
        return backupsRepository.updateJob(this.db, id, { status: 'failed', error_key: key, updated_at: this.now() });
      })
      .catch((error: unknown) => this.log(error, id))
      .finally(() => clearInterval(beat));
    return { id, kind, status: 'running', step: '', errorKey: '' };
  }
}
