import type { JobEngine } from './job-engine.ts';
import type { JobKind } from './job-kind.ts';

/** What sends a job: the engine, or a stand-in where a process sends none. */
export type JobSender = Pick<JobEngine, 'send'>;

/**
 * For processes that build a service but never use the part of it that sends jobs (the demo
 * seed, doctor's probes): sending is a programming error there, said plainly.
 */
export const NO_JOB_SENDER: JobSender = {
  send: (kind) => Promise.reject(new Error(`this process has no job engine to send ${kind.name} to`)),
};

/**
 * For a process that only sends now and then (the CLI): the engine is started, without workers,
 * on the first send, and stopped by `stop` if it was.
 */
export function startingSender(engine: JobEngine): JobSender & { stop(): Promise<void> } {
  let started: Promise<void> | undefined;
  return {
    async send<P>(kind: JobKind<P>, payload: P, options?: Parameters<JobEngine['send']>[2]) {
      started ??= engine.start({ workers: false });
      await started;
      return engine.send(kind, payload, options);
    },
    async stop() {
      if (!started) return;
      await started.catch(() => undefined);
      await engine.stop();
    },
  };
}
