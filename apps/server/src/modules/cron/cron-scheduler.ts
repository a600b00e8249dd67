import type { Db } from '../../db/database.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import { RUN_CRON_TASK } from './cron.jobs.ts';
import { cronRepository } from './cron.repository.ts';
import { runsAt } from './cron-schedule.ts';

/** A finished run's mail to its task's address (the composition sends it through the outbox). */
export interface CronOutputMail {
  brandId: number;
  to: string;
  domain: string;
  kind: string;
  target: string;
  schedule: string;
  startedAt: number;
  outcome: string;
  exitCode: number | null;
  output: string;
}

/**
 * The control plane's part of scheduled tasks, a round every minute (`cron.tick`, once across
 * instances): each enabled task of a service that is not suspended whose schedule has this
 * minute is taken for the minute (one instance wins the row) and sent to its web server; the
 * output of runs that ended goes to their task's address. A minute the round missed (no
 * instance up) is not caught up, as cron does not.
 */
export class CronScheduler {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobSender,
    private readonly mail: (mail: CronOutputMail) => Promise<void>,
    private readonly settings: { timezone: string },
    private readonly now: () => number,
  ) {}

  /** Sends the tasks due at the current minute; answers how many. */
  async sendDue(): Promise<number> {
    const minute = Math.floor(this.now() / 60) * 60;
    let sent = 0;
    for (const task of await cronRepository.enabledTasks(this.db)) {
      if (Number(task.due_at) >= minute || !runsAt(task.schedule, this.settings.timezone, minute)) continue;
      if (!(await cronRepository.claimMinute(this.db, task.id, minute))) continue;
      await this.jobs.send(RUN_CRON_TASK, {
        taskId: task.id,
        serviceId: task.service_id,
        trigger: 'schedule' as const,
      });
      sent += 1;
    }
    return sent;
  }

  /** Mails the output of runs that ended, to their task's address; answers how many. */
  async mailOutputs(): Promise<number> {
    const runs = await cronRepository.unmailedRuns(this.db, 100);
    for (const run of runs)
      await this.mail({
        brandId: run.brand_id,
        to: run.email,
        domain: run.domain,
        kind: run.kind,
        target: run.target,
        schedule: run.schedule,
        startedAt: Number(run.started_at),
        outcome: run.outcome,
        exitCode: run.exit_code,
        output: run.output,
      });
    await cronRepository.markMailed(
      this.db,
      runs.map((run) => run.id),
    );
    return runs.length;
  }
}
