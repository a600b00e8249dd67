import type { JobEngine, JobState, NamedKind } from './job-engine.ts';

/**
 * Work a customer follows through a row of its own (a backup, an install): the row is recorded
 * first, then its job is sent with the row's id as the job's, so that what the page shows can be
 * checked against the engine.
 */

/** How long a recorded row may wait for its job to reach the engine before it counts as lost. */
export const SENDING_SECONDS = 60;

const OPEN: readonly JobState[] = ['created', 'retry', 'active'];

/** The engine's id for a row id of 32 hex digits: the same digits, as a UUID. */
export function workIdOf(rowId: string): string {
  return `${rowId.slice(0, 8)}-${rowId.slice(8, 12)}-${rowId.slice(12, 16)}-${rowId.slice(16, 20)}-${rowId.slice(20)}`;
}

/** A new row id and the job id it goes with. */
export function newWorkIds(): { rowId: string; workId: string } {
  const workId = crypto.randomUUID();
  return { rowId: workId.replaceAll('-', ''), workId };
}

/**
 * Whether a row still queued or running can no longer end by itself: the engine holds no open job
 * for it (it gave up after its instance died on the last try, or the job never reached it once
 * the sending time has passed).
 */
export async function workLost(
  jobs: Pick<JobEngine, 'find'>,
  kind: NamedKind,
  row: { id: string; created_at: number | string },
  now: number,
): Promise<boolean> {
  const work = await jobs.find(kind, workIdOf(row.id));
  if (work) return !OPEN.includes(work.state);
  return Number(row.created_at) <= now - SENDING_SECONDS;
}
