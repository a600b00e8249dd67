import type { Language } from '@panel247/contract/constants';
import type {
  CronKind,
  CronListData,
  CronPreviewData,
  CronRun,
  CronSaveParams,
  CronTask,
} from '@panel247/contract/cron';
import { email as emailRule } from '@panel247/contract/fields';
import type { Db } from '../../db/database.ts';
import { type FieldError, FieldErrors, NotFoundError } from '../../errors.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import type { AuthorizedResource, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { RUN_CRON_TASK } from './cron.jobs.ts';
import { type CronTaskFields, cronRepository } from './cron.repository.ts';
import { describeSchedule, nextRuns, normalSchedule, shortestInterval } from './cron-schedule.ts';
import { checkKind, checkTarget } from './cron-target.ts';

type RunRow = Awaited<ReturnType<typeof cronRepository.runs>>[number];
type TaskRow = Awaited<ReturnType<typeof cronRepository.tasks>>[number];

export function toRun(row: RunRow): CronRun {
  return {
    id: row.id,
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
    exitCode: row.exit_code,
    outcome: row.outcome as CronRun['outcome'],
    output: row.output,
    trigger: row.trigger as CronRun['trigger'],
  };
}

/**
 * A hosting service's scheduled tasks, behind `service_cron` (read sees the tasks and their
 * runs, write changes and runs them). Every field is checked before it is kept: the kind, the
 * script's path or the site's URL (cron-target.ts), the schedule (cron-schedule.ts) against the
 * plan's shortest interval, the address. The plan's number of tasks is taken inside the creating
 * transaction, after the service's turn, so two creates at once cannot both take the last one.
 */
export class CronService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly jobs: JobSender,
    private readonly settings: { timezone: string },
    private readonly now: () => number,
  ) {}

  private async service(actor: Actor, id: number, need: 'visible' | 'action'): Promise<AuthorizedResource> {
    const resource = await this.permissions.authorize(actor, id, 'service_cron', need);
    if (!resource.hasService) throw new NotFoundError();
    return resource;
  }

  async list(actor: Actor, id: number, language: Language): Promise<CronListData> {
    await this.service(actor, id, 'visible');
    const limits = await planLimits.of(this.db, id);
    return {
      tasks: await this.tasks(id, language),
      limits: { maxTasks: limits.cronTasks, minIntervalMinutes: limits.cronMinIntervalMinutes },
      timezone: this.settings.timezone,
    };
  }

  private async tasks(serviceId: number, language: Language): Promise<CronTask[]> {
    const [rows, lastRuns] = await Promise.all([
      cronRepository.tasks(this.db, serviceId),
      cronRepository.lastRuns(this.db, serviceId),
    ]);
    return rows.map((row) =>
      this.toTask(
        row,
        lastRuns.find((run) => run.task_id === row.id),
        language,
      ),
    );
  }

  private toTask(row: TaskRow, lastRun: RunRow | undefined, language: Language): CronTask {
    return {
      id: row.id,
      kind: row.kind as CronKind,
      target: row.target,
      schedule: row.schedule,
      description: describeSchedule(row.schedule, language),
      nextRuns: nextRuns(row.schedule, this.settings.timezone, this.now(), 3),
      email: row.email,
      enabled: row.enabled === 1,
      lastRun: lastRun ? toRun(lastRun) : null,
    };
  }

  /** The schedule in words and its next runs, or the schedule's field error (the form's live preview). */
  async preview(actor: Actor, id: number, schedule: string, language: Language): Promise<CronPreviewData> {
    await this.service(actor, id, 'visible');
    const checked = normalSchedule(schedule);
    if ('problem' in checked) throw FieldErrors.one('schedule', checked.problem);
    return {
      description: describeSchedule(checked.schedule, language),
      nextRuns: nextRuns(checked.schedule, this.settings.timezone, this.now(), 3),
    };
  }

  async create(actor: Actor, id: number, params: CronSaveParams, language: Language): Promise<CronTask[]> {
    const resource = await this.service(actor, id, 'action');
    const fields = await this.checked(resource, params, true);
    await this.db.transaction().execute(async (trx) => {
      await planLimits.admit(trx, id, 'cronTasks');
      await cronRepository.insert(trx, id, fields, this.now());
    });
    noteChangeDetail(actor.activity, { target: `${fields.kind}: ${fields.target} (${fields.schedule})` });
    return this.tasks(id, language);
  }

  async save(
    actor: Actor,
    id: number,
    taskId: number,
    params: CronSaveParams,
    language: Language,
  ): Promise<CronTask[]> {
    const resource = await this.service(actor, id, 'action');
    const before = await cronRepository.task(this.db, id, taskId);
    if (!before) throw new NotFoundError();
    const fields = await this.checked(
      resource,
      params,
      params.enabled === undefined ? before.enabled === 1 : params.enabled === '1',
    );
    await cronRepository.update(this.db, id, taskId, fields);
    const changes = (['kind', 'target', 'schedule', 'email', 'enabled'] as const)
      .filter((field) => String(before[field]) !== String(fields[field]))
      .map((field) => ({ field, before: String(before[field]), after: String(fields[field]) }));
    noteChangeDetail(actor.activity, { target: `${fields.kind}: ${fields.target}`, changes });
    return this.tasks(id, language);
  }

  async remove(actor: Actor, id: number, taskId: number, language: Language): Promise<CronTask[]> {
    await this.service(actor, id, 'action');
    const task = await cronRepository.task(this.db, id, taskId);
    if (!task) throw new NotFoundError();
    await cronRepository.remove(this.db, id, taskId);
    noteChangeDetail(actor.activity, { target: `${task.kind}: ${task.target}` });
    return this.tasks(id, language);
  }

  /** A run now, on the service's web server, beside the schedule. */
  async runNow(actor: Actor, id: number, taskId: number): Promise<void> {
    await this.service(actor, id, 'action');
    const task = await cronRepository.task(this.db, id, taskId);
    if (!task) throw new NotFoundError();
    await this.jobs.send(RUN_CRON_TASK, { taskId, serviceId: id, trigger: 'manual' as const });
    noteChangeDetail(actor.activity, { target: `${task.kind}: ${task.target}` });
  }

  async runs(actor: Actor, id: number, taskId: number): Promise<CronRun[]> {
    await this.service(actor, id, 'visible');
    if (!(await cronRepository.task(this.db, id, taskId))) throw new NotFoundError();
    return (await cronRepository.runs(this.db, taskId)).map(toRun);
  }

  /** The task's fields as kept, or every field's error at once. */
  private async checked(
    resource: AuthorizedResource,
    params: CronSaveParams,
    enabled: boolean,
  ): Promise<CronTaskFields> {
    const errors: FieldError[] = [];
    const kind = checkKind(params.kind);
    if (!kind) errors.push({ field: 'kind', messageKey: 'cron.error.kind' });
    const target = kind ? checkTarget(kind, params.target, resource.referencePunycode) : undefined;
    if (target && 'problem' in target) errors.push({ field: 'target', messageKey: target.problem });
    const schedule = normalSchedule(params.schedule);
    if ('problem' in schedule) errors.push({ field: 'schedule', messageKey: schedule.problem });
    else {
      const { cronMinIntervalMinutes } = await planLimits.of(this.db, resource.id);
      if (shortestInterval(schedule.schedule, this.settings.timezone, this.now()) < cronMinIntervalMinutes * 60)
        errors.push({
          field: 'schedule',
          messageKey: 'cron.error.interval',
          params: { minutes: cronMinIntervalMinutes },
        });
    }
    const address = params.email.trim();
    if (address && !emailRule.safeParse(address).success)
      errors.push({ field: 'email', messageKey: 'validation.email' });
    if (errors.length > 0 || !kind || !target || 'problem' in target || 'problem' in schedule)
      throw new FieldErrors(errors);
    return { kind, target: target.target, schedule: schedule.schedule, email: address, enabled: enabled ? 1 : 0 };
  }
}
