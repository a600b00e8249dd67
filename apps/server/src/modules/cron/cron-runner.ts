import path from 'node:path';
import { CRON_OUTPUT_MAX_BYTES } from '@panel247/contract/cron';
import type { Db } from '../../db/database.ts';
import type { CronOutcome } from '../../drivers/cron/cron-exec.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { CronRunOrder } from './cron.jobs.ts';
import { cronRepository } from './cron.repository.ts';

const NO_USER =
  'Not run: this server cannot run a script as the service’s user (the panel is not root and has no service users).';

/** How a run is carried out: the drivers (drivers/cron/cron-exec.ts), bound by the composition. */
export interface CronExecutors {
  php(options: { home: string; script: string; owner: FileOwner }): Promise<CronOutcome>;
  url(url: string): Promise<CronOutcome>;
}

/**
 * A run of a task on the service's web server: the run's row is written when it starts (the
 * page shows it running) and when it ends, with its exit status and its output's start. The
 * script runs as the service's user, found where the server keeps its homes.
 */
export class CronRunner {
  constructor(
    private readonly db: Db,
    private readonly settings: { hostingRoot: string },
    private readonly ownerOf: (serviceId: number) => Promise<FileOwner | undefined>,
    private readonly executors: CronExecutors,
    private readonly now: () => number,
  ) {}

  async run(order: CronRunOrder): Promise<void> {
    const task = await cronRepository.runnable(this.db, order.taskId);
    // removed since it was sent: nothing to run
    if (!task || task.service_id !== order.serviceId) return;
    const runId = await cronRepository.startRun(this.db, task.id, order.trigger, this.now());
    const outcome = task.kind === 'php' ? await this.runScript(task) : await this.executors.url(task.target);
    await cronRepository.finishRun(this.db, runId, task.id, {
      finishedAt: this.now(),
      exitCode: outcome.exitCode,
      outcome: outcome.outcome,
      output: outcome.output.slice(0, CRON_OUTPUT_MAX_BYTES),
    });
  }

  /**
   * A customer's PHP never runs with the panel's rights: a panel that is not root, without
   * service users, cannot switch to anyone, so the run fails and says why.
   */
  private async runScript(task: { service_id: number; domain: string; target: string }): Promise<CronOutcome> {
    const owner = await this.ownerOf(task.service_id);
    if (!owner) return { exitCode: null, outcome: 'failed', output: NO_USER };
    return this.executors.php({ home: path.join(this.settings.hostingRoot, task.domain), script: task.target, owner });
  }
}
