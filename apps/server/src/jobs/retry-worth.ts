import { AppError, DaemonError } from '../errors.ts';

/**
 * Whether a job's failure may pass if the job runs again: a daemon that did not answer or failed,
 * or an error nobody expected, may; a refusal the panel itself explains to the customer (a
 * conflict, a missing snapshot, a field) will not, so the job ends with it at once.
 */
export function worthRetrying(error: unknown): boolean {
  return !(error instanceof AppError) || error instanceof DaemonError;
}
