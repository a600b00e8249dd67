import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';

/**
 * Scheduled tasks of a hosting service (cron): a PHP script of the home or a URL of one of its
 * sites, run on a schedule in cron syntax as the service's own user on its web server.
 */

export const CRON_KINDS = ['php', 'url'] as const;
export type CronKind = (typeof CRON_KINDS)[number];

/** How much of a run's output is kept (bytes); what is beyond is cut, and said so. */
export const CRON_OUTPUT_MAX_BYTES = 16_384;
/** Runs kept per task (the oldest go). */
export const CRON_RUNS_KEPT = 20;

export const cronRunSchema = z.object({
  id: z.number().int(),
  /** Epoch seconds. */
  startedAt: z.number().int(),
  /** Epoch seconds; 0 while it runs. */
  finishedAt: z.number().int(),
  /** The script's exit status, or for a URL 0 when it answered 2xx/3xx; null while it runs or when it was stopped. */
  exitCode: z.number().int().nullable(),
  /** 'ok', 'failed', 'timeout' (stopped after the limit), 'running'. */
  outcome: z.enum(['running', 'ok', 'failed', 'timeout']),
  /** What it printed (stdout then stderr; a URL's status line and body), cut at CRON_OUTPUT_MAX_BYTES. */
  output: z.string(),
  /** 'schedule' or 'manual' (Run now). */
  trigger: z.enum(['schedule', 'manual']),
});
export type CronRun = z.infer<typeof cronRunSchema>;

export const cronTaskSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CRON_KINDS),
  /** A path relative to the home (php) or an http(s) URL of one of the service's sites (url). */
  target: z.string(),
  /** Five cron fields: minute hour day-of-month month day-of-week. */
  schedule: z.string(),
  /** The schedule in the user's language ("At 03:15, every day"). */
  description: z.string(),
  /** The next runs, epoch seconds (three). */
  nextRuns: z.array(z.number().int()),
  /** Where each run's output is mailed ('' : nowhere). */
  email: z.string(),
  enabled: z.boolean(),
  lastRun: cronRunSchema.nullable(),
});
export type CronTask = z.infer<typeof cronTaskSchema>;

export const cronListDataSchema = z.object({
  tasks: z.array(cronTaskSchema),
  /** The plan's limits: how many tasks (null: no limit), and the shortest interval between two runs (minutes). */
  limits: z.object({ maxTasks: z.number().int().nullable(), minIntervalMinutes: z.number().int() }),
  /** The time zone the schedules are read in (IANA name). */
  timezone: z.string(),
});
export type CronListData = z.infer<typeof cronListDataSchema>;

export const cronRunsDataSchema = z.object({ runs: z.array(cronRunSchema) });
export type CronRunsData = z.infer<typeof cronRunsDataSchema>;

export const cronPreviewDataSchema = z.object({ description: z.string(), nextRuns: z.array(z.number().int()) });
export type CronPreviewData = z.infer<typeof cronPreviewDataSchema>;

export const cronParamsSchema = z.object({ id: idParam });
export const cronTaskParamsSchema = z.object({ id: idParam, taskId: idParam });
export const cronPreviewParamsSchema = z.object({ id: idParam, schedule: textAsTyped(200) });

/** Create and save: the service checks each field and answers its precise error (`cron.error.*`). */
export const cronSaveParamsSchema = z.object({
  id: idParam,
  kind: textAsTyped(8),
  target: textAsTyped(2048),
  schedule: textAsTyped(200),
  email: textAsTyped(254).optional().default(''),
  /** '1' or '0' (save only; a new task is enabled). */
  enabled: z.enum(['0', '1']).optional(),
});
export const cronTaskSaveParamsSchema = cronSaveParamsSchema.extend({ taskId: idParam });
export type CronSaveParams = z.infer<typeof cronSaveParamsSchema>;
