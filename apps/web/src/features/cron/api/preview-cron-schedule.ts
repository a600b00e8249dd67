import { useDebouncedValue } from '@mantine/hooks';
import type { CronPreviewData } from '@panel247/contract/cron';
import { CRON_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/use-translation';
import { normalizeSchedule } from '../lib/cron-schedule';
import { cronQueryKey } from './list-cron-tasks';

/** How long typing must pause before the schedule is read again. */
export const PREVIEW_DEBOUNCE_MS = 300;

/** A schedule in words (the user's language) and its next runs; a wrong one answers its field error. */
export function previewCronSchedule(serviceId: number, schedule: string, signal?: AbortSignal) {
  return api<CronPreviewData>(CRON_API.preview(serviceId), { schedule }, { method: 'POST', signal });
}

/**
 * The typed schedule read by the server once typing pauses; the last reading stays shown while
 * the next one is asked for. A wrong schedule is not asked again: it stays wrong until retyped.
 */
export function useCronPreview(serviceId: number, typed: string) {
  const { i18n } = useTranslation();
  const [schedule] = useDebouncedValue(normalizeSchedule(typed), PREVIEW_DEBOUNCE_MS);
  return useQuery({
    queryKey: [...cronQueryKey(serviceId), 'preview', i18n.language, schedule] as const,
    queryFn: ({ signal }) => previewCronSchedule(serviceId, schedule, signal),
    enabled: schedule !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}
