import type { WorkArea } from '@panel247/contract/work-areas';
import type { QueryKey } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation';
import { useWorkRefresh } from '../lib/use-work-refresh';
import { PendingWorkAlert } from './pending-work-alert';

/** A service's changes in one area not all on its server: since when, and why the last attempt failed. */
export interface ServiceApplying {
  state: 'pending' | 'failing';
  since: number;
  reason: string | null;
}

/**
 * The service's latest changes of an area not all on its server yet (see PendingWorkAlert), on
 * the views that make them. The realtime word that they moved on reads `queryKey` again (and,
 * with `onJobs`, a call answered "being applied": views whose own calls do not invalidate it).
 * The words are the area's: `<words>.pending_title`, `.pending`, `.failing_title`, `.reason_<reason>`.
 */
export function ServiceApplyingAlert({
  area,
  serviceId,
  applying,
  queryKey,
  words,
  retry,
  onJobs = false,
}: {
  area: WorkArea;
  serviceId: number;
  applying: ServiceApplying | null | undefined;
  queryKey: QueryKey;
  words: string;
  /** The area's "try again" call, for a user who may change the area. */
  retry?: { mutateAsync: () => Promise<readonly string[] | undefined>; isPending: boolean } | undefined;
  onJobs?: boolean;
}) {
  const { t } = useTranslation();
  useWorkRefresh(area, serviceId, queryKey, onJobs);
  if (!applying) return null;
  const failing = applying.state === 'failing';
  return (
    <PendingWorkAlert
      state={applying.state}
      title={t(`${words}.${failing ? 'failing_title' : 'pending_title'}`)}
      text={t(failing ? `${words}.reason_${applying.reason ?? 'failed'}` : `${words}.pending`)}
      {...(retry ? { retry: { run: () => retry.mutateAsync(), running: retry.isPending } } : {})}
      testId={`${area}-applying`}
    />
  );
}
