import type { WorkArea } from '@panel247/contract/work-areas';
import type { FieldError } from '../errors.ts';

/** The parts of a service whose changes a server applies through the work log (the zones have their own log). */
export type ServiceArea = Exclude<WorkArea, 'dns'>;

/** What the request waiting on a change is told. */
export type ServiceChangeOutcome =
  /**
   * The server refused it, on these fields, and it was taken out of the database again; no
   * fields: an earlier change it was made on was refused, and it went with it.
   */
  | { refused: { fields: FieldError[] } }
  /** The last attempt failed (a daemon refused or is down); the work log tries again. */
  | { failedAttempt: { messageKey: string; detail: string } };

export interface ServiceChangeEntry<C, U> {
  id: number;
  change: C;
  undo: U | null;
  createdAt: number;
}

export interface ServiceChangeWord {
  state: 'pending' | 'applied' | 'refused';
  outcome: ServiceChangeOutcome | null;
}

/** The key of a service's signals in one area (see jobs/work-word.ts). */
export function serviceKey(area: ServiceArea, serviceId: number): string {
  return `${area}:${serviceId}`;
}

/**
 * A change's id as the envelope's `job` names it (32 hex characters, like every job id the
 * client follows): the entry's id, zero-padded.
 */
export function changeJobId(entryId: number): string {
  return entryId.toString(16).padStart(32, '0');
}

/** What a call that made a change still being applied answers with (see http/api-route.ts). */
export interface PendingWork {
  jobId: string;
  /** Its last attempt failed: the work log tries again (the customer may ask for it now). */
  failed: boolean;
}
