import { AppError, ConflictError, DaemonError, FieldErrors, NotFoundError, QuotaError } from '../../../errors.ts';
import { ArchiveError } from '../../archives/archive-error.ts';
import type { WorkerFailure } from './protocol.ts';

/**
 * A file operation's failure as it crosses a process or the network (a worker's IPC channel, the
 * node channel) and back: the panel's typed errors keep their kind, key and parameters; anything
 * else travels as its errno code and message.
 */
export function describeFailure(error: unknown): WorkerFailure {
  if (error instanceof FieldErrors) return { type: 'error', kind: 'FieldErrors', fields: error.fields };
  if (error instanceof DaemonError)
    return { type: 'error', kind: 'daemon', key: error.messageKey, detail: error.detail, params: error.params };
  if (error instanceof AppError) {
    const kind =
      error instanceof NotFoundError
        ? 'not_found'
        : error instanceof QuotaError
          ? 'quota'
          : error instanceof ConflictError
            ? 'conflict'
            : undefined;
    if (kind) return { type: 'error', kind, key: error.messageKey, params: error.params };
  }
  if (error instanceof ArchiveError) return { type: 'error', kind: 'archive', message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return { type: 'error', kind: 'system', code, message: error instanceof Error ? error.message : String(error) };
}

/** The error a described failure stands for, on the side that receives it. */
export function failureError(failure: WorkerFailure): Error {
  switch (failure.kind) {
    case 'FieldErrors':
      return new FieldErrors(failure.fields);
    case 'not_found':
      return new NotFoundError(failure.key);
    case 'quota':
      return new QuotaError(failure.key, failure.params);
    case 'conflict':
      return new ConflictError(failure.key, failure.params);
    case 'archive':
      return new ArchiveError(failure.message);
    case 'daemon':
      return new DaemonError(failure.key, failure.detail, failure.params);
    default: {
      // The kernel refused what the code did not check: to the customer, a plain refusal.
      if (failure.code === 'EACCES' || failure.code === 'EPERM') return new ConflictError('files.error.denied');
      if (failure.code === 'ENOSPC' || failure.code === 'EDQUOT') return new QuotaError('files.error.quota');
      // A failure that crossed twice (a worker's, then the node channel's) is named once.
      const message = failure.message.startsWith('file worker: ') ? failure.message : `file worker: ${failure.message}`;
      const error = new Error(message) as NodeJS.ErrnoException;
      if (failure.code) error.code = failure.code;
      return error;
    }
  }
}
