import path from 'node:path';
import { CRON_OUTPUT_MAX_BYTES } from '@panel247/contract/cron';
import type { Db } from '../../db/database.ts';
import type { CronOutcome } from '../../drivers/cron/cron-exec.ts';
import type { FileOwner } from '../../drivers/files/confined/protocol.ts';
import type { CronRunOrder } from './cron.jobs.ts';
import { cronRepository } from './cron.repository.ts';

/** How a run is carried out: the drivers (drivers/cron/cron-exec.ts), bound by the composition. */
export interface CronExecutors {
  php(options: { home: string; script: string; owner: FileOwner | undefined }): Promise<CronOutcome>;
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
    const outcome =
      task.kind === 'php'
        ? await this.executors.php({
            home: path.join(this.settings.hostingRoot, task.domain),
            script: task.target,
            owner: await this.ownerOf(task.service_id),
          })
        : await this.executors.url(task.target);
    await cronRepository.finishRun(this.db, runId, task.id, {
      finishedAt: this.now(),
      exitCode: outcome.exitCode,
      outcome: outcome.outcome,
      output: outcome.output.slice(0, CRON_OUTPUT_MAX_BYTES),
    });
  }
}
