import type { WorkArea } from '@panel247/contract/work-areas';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onJob } from './api-client';
import { onWorkChanged } from './work-events';

/**
 * While an object's changes wait for its server, its state is asked again this often: a safety
 * net for a realtime socket that was away when they landed (its `work.changed` word reads it at once).
 */
export const PENDING_WORK_REFRESH_MS = 30_000;

/**
 * Reads `queryKey` again when the object's changes in `area` move on at its server (the realtime
 * word) and, with `onJobs`, when a call answers that a change is still being applied.
 */
export function useWorkRefresh(area: WorkArea, resourceId: number, queryKey: QueryKey, onJobs = false): void {
  const queryClient = useQueryClient();
  // The key's parts, not its array (a new one each render), decide when to listen again.
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    const readAgain = () => void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey });
    const offWork = onWorkChanged((change) => {
      if (change.area === area && change.resourceId === resourceId) readAgain();
    });
    const offJob = onJobs ? onJob(readAgain) : () => undefined;
    return () => {
      offWork();
      offJob();
    };
  }, [queryClient, area, resourceId, keyText, onJobs]);
}
