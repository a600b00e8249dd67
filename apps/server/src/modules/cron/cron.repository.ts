import { CRON_OUTPUT_MAX_BYTES, CRON_RUNS_KEPT } from '@panel247/contract/cron';
import type { Db } from '../../db/database.ts';

export interface CronTaskFields {
  kind: string;
  target: string;
  schedule: string;
  email: string;
  enabled: number;
}

const TASK_COLUMNS = ['id', 'service_id', 'kind', 'target', 'schedule', 'email', 'enabled', 'due_at'] as const;
const RUN_COLUMNS = [
  'id',
  'task_id',
  'trigger',
  'started_at',
  'finished_at',
  'exit_code',
  'outcome',
  'output',
] as const;

/** Every query of the scheduled tasks; callers pass ids the guard has already checked. */
export const cronRepository = {
  tasks(db: Db, serviceId: number) {
    return db.selectFrom('cron_tasks').select(TASK_COLUMNS).where('service_id', '=', serviceId).orderBy('id').execute();
  },

  task(db: Db, serviceId: number, taskId: number) {
    return db
      .selectFrom('cron_tasks')
      .select(TASK_COLUMNS)
      .where('service_id', '=', serviceId)
      .where('id', '=', taskId)
      .executeTakeFirst();
  },

  async insert(db: Db, serviceId: number, fields: CronTaskFields, now: number): Promise<number> {
    const row = await db
      .insertInto('cron_tasks')
      .values({ service_id: serviceId, ...fields, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  update(db: Db, serviceId: number, taskId: number, fields: CronTaskFields) {
    return db
      .updateTable('cron_tasks')
      .set(fields)
      .where('service_id', '=', serviceId)
      .where('id', '=', taskId)
      .execute();
  },

  remove(db: Db, serviceId: number, taskId: number) {
    return db.deleteFrom('cron_tasks').where('service_id', '=', serviceId).where('id', '=', taskId).execute();
  },

  /** The newest run of each of the service's tasks. */
  lastRuns(db: Db, serviceId: number) {
    return db
      .selectFrom('cron_runs as r')
      .innerJoin('cron_tasks as t', 't.id', 'r.task_id')
      .select(RUN_COLUMNS.map((column) => `r.${column}` as const))
      .where('t.service_id', '=', serviceId)
      .where('r.id', 'in', (eb) =>
        eb
          .selectFrom('cron_runs as n')
          .select((e) => e.fn.max('n.id').as('id'))
          .groupBy('n.task_id'),
      )
      .execute();
  },

  runs(db: Db, taskId: number) {
    return db
      .selectFrom('cron_runs')
      .select(RUN_COLUMNS)
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .limit(CRON_RUNS_KEPT)
      .execute();
  },

  /** Every enabled task of a service that is not suspended, with its service's name: what the round looks through. */
  enabledTasks(db: Db) {
    return db
      .selectFrom('cron_tasks as t')
      .innerJoin('resources as r', 'r.id', 't.service_id')
      .select(['t.id', 't.service_id', 't.schedule', 't.due_at'])
      .where('t.enabled', '=', 1)
      .where('r.has_service', '=', 1)
      .where('r.suspended_at', 'is', null)
      .execute();
  },

  /** Takes the task's minute: true for the one instance whose update found it not taken yet. */
  async claimMinute(db: Db, taskId: number, minute: number): Promise<boolean> {
    const result = await db
      .updateTable('cron_tasks')
      .set({ due_at: minute })
      .where('id', '=', taskId)
      .where('due_at', '<', minute)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** What a run needs: the task and its service's name. */
  runnable(db: Db, taskId: number) {
    return db
      .selectFrom('cron_tasks as t')
      .innerJoin('resources as r', 'r.id', 't.service_id')
      .select(['t.id', 't.service_id', 't.kind', 't.target', 'r.reference_punycode as domain'])
      .where('t.id', '=', taskId)
      .executeTakeFirst();
  },

  async startRun(db: Db, taskId: number, trigger: string, now: number): Promise<number> {
    const row = await db
      .insertInto('cron_runs')
      .values({ task_id: taskId, trigger, started_at: now, outcome: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  /** The run's end; the task keeps its newest CRON_RUNS_KEPT runs. */
  async finishRun(
    db: Db,
    runId: number,
    taskId: number,
    end: { finishedAt: number; exitCode: number | null; outcome: string; output: string },
  ): Promise<void> {
    await db
      .updateTable('cron_runs')
      .set({
        finished_at: end.finishedAt,
        exit_code: end.exitCode,
        outcome: end.outcome,
        output: end.output.slice(0, CRON_OUTPUT_MAX_BYTES),
      })
      .where('id', '=', runId)
      .execute();
    const kept = await db
      .selectFrom('cron_runs')
      .select('id')
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .offset(CRON_RUNS_KEPT)
      .limit(1)
      .executeTakeFirst();
    if (kept) await db.deleteFrom('cron_runs').where('task_id', '=', taskId).where('id', '<=', kept.id).execute();
  },

  /** Finished runs of tasks with an address, not mailed yet, with what the mail needs. */
  unmailedRuns(db: Db, limit: number) {
    return db
      .selectFrom('cron_runs as r')
      .innerJoin('cron_tasks as t', 't.id', 'r.task_id')
      .innerJoin('resources as s', 's.id', 't.service_id')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select([
        'r.id',
        'r.started_at',
        'r.exit_code',
        'r.outcome',
        'r.output',
        't.kind',
        't.target',
        't.schedule',
        't.email',
        's.reference as domain',
        'a.brand_id',
      ])
      .where('r.mailed', '=', 0)
      .where('r.outcome', '!=', 'running')
      .where('t.email', '!=', '')
      .orderBy('r.id')
      .limit(limit)
      .execute();
  },

  markMailed(db: Db, runIds: number[]) {
    if (runIds.length === 0) return Promise.resolve([]);
    return db.updateTable('cron_runs').set({ mailed: 1 }).where('id', 'in', runIds).execute();
  },
};
