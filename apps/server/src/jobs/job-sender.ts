import type { JobEngine } from './job-engine.ts';

/** What sends a job: the engine, or a stand-in where a process sends none. */
export type JobSender = Pick<JobEngine, 'send'>;

/**
 * For processes that build a service but never use the part of it that sends jobs (the demo
 * seed, doctor's probes): sending is a programming error there, said plainly.
 */
export const NO_JOB_SENDER: JobSender = {
  send: (kind) => Promise.reject(new Error(`this process has no job engine to send ${kind.name} to`)),
};
