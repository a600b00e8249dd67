import { changesWaiting } from '../../cli/changes-waiting.ts';
import type { Db } from '../../db/database.ts';
import { listWindowOf } from '../../db/list-query.ts';
import { NotFoundError } from '../../errors.ts';
import type { JobEngine, JobState, JobView } from '../../jobs/job-engine.ts';
import type { NodesService } from '../nodes/nodes.service.ts';
import { consoleOversightRepository as repository } from './console-oversight.repository.ts';

const WORK_STATES: Record<'open' | 'failed' | 'retrying', readonly JobState[]> = {
  open: ['created', 'retry', 'active', 'failed'],
  failed: ['failed'],
  retrying: ['retry'],
};

const JOBS_SHOWN = 100;
const OUTBOX_SHOWN = 100;
const ACTIVITY_PAGE = 50;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A job as the console shows it: never its payload (it may name what a customer asked for). */
function jobView(job: JobView) {
  return {
    id: job.id,
    kind: job.kind,
    key: job.key,
    state: job.state,
    retries: job.retries,
    error: job.error,
    createdAt: seconds(job.createdAt),
    runAfter: seconds(job.runAfter),
  };
}

/**
 * What the provider's staff watch across every account: the accounts and their users, the work
 * log's open and failed jobs (a failed one run again), the changes still on their way to a
 * server, the outbox, every account's activity and the servers that are down.
 */
export class ConsoleOversight {
  constructor(
    private readonly db: Db,
    private readonly jobs: Pick<JobEngine, 'list' | 'find' | 'retry'>,
    private readonly nodes: Pick<NodesService, 'list'>,
  ) {}

  async accounts(params: {
    page?: number | undefined;
    pageSize: number;
    filter: string;
    sort: 'domain' | 'brand';
    order: 'asc' | 'desc';
  }) {
    const { rows, total } = await repository.accounts(this.db, listWindowOf({ ...params, page: params.page ?? 1 }));
    return {
      accounts: rows.map((row) => ({
        id: row.id,
        domain: row.domain,
        brand: row.brand,
        services: Number(row.services ?? 0),
        users: Number(row.users ?? 0),
        createdAt: Number(row.created_at),
      })),
      total,
    };
  }

  async users(domain: string) {
    if (!(await repository.accountExists(this.db, domain.toLowerCase()))) throw new NotFoundError();
    return (await repository.users(this.db, domain.toLowerCase())).map((row) => ({
      username: row.username,
      email: row.email,
      lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
      // SQLite answers 0/1, PostgreSQL a boolean
      secondFactor: Boolean(Number(row.second_factor)),
      manageUsers: row.manage_users === 1,
      disabled: row.disabled_at !== null,
    }));
  }

  async work(state: 'open' | 'failed' | 'retrying') {
    const jobs = await this.jobs.list({ states: WORK_STATES[state], limit: JOBS_SHOWN });
    const changes = (await changesWaiting(this.db)).map(({ area, domain, pending, since, lastError }) => ({
      area,
      domain,
      pending,
      since,
      lastError,
    }));
    return { jobs: jobs.map(jobView), changes };
  }

  /** A failed job (or one waiting for its retry) run again now; anything else is not found. */
  async retry(id: string) {
    const job = await this.jobs.find(undefined, id);
    if (!job || (job.state !== 'failed' && job.state !== 'retry')) throw new NotFoundError();
    await this.jobs.retry({ name: job.kind }, job.id);
    return jobView((await this.jobs.find(undefined, id)) ?? job);
  }

  async outbox(unsentOnly: boolean) {
    return (await repository.outbox(this.db, unsentOnly, OUTBOX_SHOWN)).map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      subject: row.subject,
      createdAt: Number(row.created_at),
      sentAt: row.sent_at === null ? null : Number(row.sent_at),
      error: row.error,
    }));
  }

  async activity(page: number | undefined, filter: string) {
    const offset = ((page ?? 1) - 1) * ACTIVITY_PAGE;
    const { rows, total } = await repository.activity(this.db, filter.trim(), offset, ACTIVITY_PAGE);
    return { entries: rows.map((row) => ({ ...row, at: Number(row.at) })), total };
  }

  async servers() {
    const all = await this.nodes.list();
    return {
      servers: all.map((node) => ({
        name: node.name,
        roles: node.roles,
        host: node.host,
        state: node.state,
        up: node.up,
        lastSeenAt: node.lastSeenAt,
        services: node.services,
      })),
      down: all.filter((node) => !node.up).length,
    };
  }
}
