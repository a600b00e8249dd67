import type { JobEngine, JobState, JobView } from '../../jobs/job-engine.ts';
import { workLogSummary } from '../../jobs/work-log-report.ts';
import { changesWaiting, troubled } from '../changes-waiting.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';

const STATES: Record<string, readonly JobState[]> = {
  open: ['created', 'retry', 'active', 'failed'],
  failed: ['failed'],
  retrying: ['retry'],
  all: ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'],
};

/** The work log, opened for reading and sending only (the server's instances run the jobs). */
async function withJobs<T>({ runtime }: CommandContext, work: (jobs: JobEngine) => Promise<T>): Promise<T> {
  await runtime.jobs.start({ workers: false });
  try {
    return await work(runtime.jobs);
  } finally {
    await runtime.jobs.stop();
  }
}

function rows(jobs: JobView[]) {
  return table(
    ['ID', 'KIND', 'KEY', 'STATE', 'RETRIES', 'CREATED', 'LAST ERROR'],
    jobs.map((job) => [
      job.id,
      job.kind,
      job.key ?? '',
      job.state,
      String(job.retries),
      timestamp(Math.floor(job.createdAt.getTime() / 1000)) ?? '',
      (job.error ?? '').slice(0, 80),
    ]),
  );
}

const list = defineCommand({
  name: 'list',
  summary:
    'Jobs of the work log, newest first: the open ones by default (waiting, running, to retry, failed), or --state failed|retrying|all; --kind one kind; exit 1 when one has failed',
  usage: '[--state open|failed|retrying|all] [--kind KIND] [--limit N]',
  options: { state: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' } },
  parse: ({ values }) => {
    const state = String(values.state ?? 'open');
    if (!(state in STATES)) throw new CliError(`--state must be one of ${Object.keys(STATES).join(', ')}`);
    const kind = values.kind === undefined ? undefined : String(values.kind);
    if (kind !== undefined && !/^[a-z][a-z0-9.-]{0,62}$/.test(kind)) throw new CliError(`unknown job kind '${kind}'`);
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new CliError('--limit must be a whole number from 1 to 1000');
    return { states: STATES[state] as readonly JobState[], kind, limit };
  },
  async run(ctx, input: { states: readonly JobState[]; kind?: string; limit: number }) {
    const jobs = await withJobs(ctx, (engine) => engine.list(input));
    return {
      json: { jobs },
      text: jobs.length === 0 ? 'No jobs.' : rows(jobs),
      exitCode: jobs.some((job) => job.state === 'failed') ? 1 : 0,
    };
  },
});

const summary = defineCommand({
  name: 'summary',
  summary: 'How many jobs of each kind are waiting, running, to retry, done and failed',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const { counts, line } = await withJobs(ctx, async (engine) => ({
      counts: await engine.counts(),
      line: (await workLogSummary(engine)).text,
    }));
    const states: JobState[] = ['created', 'active', 'retry', 'completed', 'failed'];
    return {
      json: { counts },
      text: `${table(
        ['KIND', 'WAITING', 'RUNNING', 'TO RETRY', 'DONE', 'FAILED'],
        counts.map((entry) => [entry.kind, ...states.map((state) => String(entry.states[state] ?? 0))]),
      )}\n${line}`,
    };
  },
});

const retry = defineCommand({
  name: 'retry',
  summary: "Run a failed job again now (its object's later jobs follow once it succeeds)",
  usage: '<id>',
  positionals: ['id'],
  parse: ({ positionals }) => {
    const id = String(positionals[0]);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
      throw new CliError(`'${id}' is not a job id`);
    return { id };
  },
  async run(ctx, input: { id: string }) {
    return withJobs(ctx, async (engine) => {
      const job = await engine.find(undefined, input.id);
      if (!job || (job.state !== 'failed' && job.state !== 'retry')) throw new CliError(`No failed job ${input.id}`);
      await engine.retry({ name: job.kind }, job.id);
      return { json: { retried: job.id, kind: job.kind }, text: `Job ${job.id} (${job.kind}) will run again.` };
    });
  },
});

const changes = defineCommand({
  name: 'changes',
  summary:
    "Objects whose changes are not yet on their server (a service's web side, a DNS zone), oldest first, with what the last attempt met; exit 1 when one has failed an attempt or waits longer than 5 minutes",
  usage: '',
  parse: () => ({}),
  async run({ runtime, now }) {
    const waiting = await changesWaiting(runtime.db);
    return {
      json: { changes: waiting },
      text:
        waiting.length === 0
          ? 'Every change is on its server.'
          : table(
              ['AREA', 'SERVICE', 'DOMAIN', 'WAITING', 'SINCE', 'LAST ERROR'],
              waiting.map((item) => [
                item.area,
                String(item.serviceId),
                item.domain,
                String(item.pending),
                timestamp(item.since) ?? '',
                (item.lastError ?? '').slice(0, 80),
              ]),
            ),
      exitCode: troubled(waiting, now()).length > 0 ? 1 : 0,
    };
  },
});

export const jobsCommands: CommandGroup = {
  name: 'jobs',
  summary: 'The work log: background jobs, the failed ones, and running one again',
  commands: [list, summary, retry, changes],
  defaultCommand: 'list',
};
