import type { WorkArea } from '@panel247/contract/work-areas';

/**
 * A resource's changes moved on at its server (the realtime channel's `work.changed`): the views
 * that show that resource's pending state listen and read it again. The shell only passes the
 * word on, so it knows nothing of the features' queries.
 */
export interface WorkChanged {
  area: WorkArea;
  resourceId: number;
}

const listeners = new Set<(change: WorkChanged) => void>();

export function announceWorkChanged(change: WorkChanged): void {
  for (const listener of listeners) listener(change);
}

/** Calls `listener` for every word; returns the unsubscribe. */
export function onWorkChanged(listener: (change: WorkChanged) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
