import type { RedirectionOneData } from '@panel247/contract/hosting';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { RedirectionSavePayload } from '../lib/redirection-form';
import { redirectionPagesQueryKey } from './list-redirection-page';

/** Host and path stay; the destination, the type and the frame texts change. */
export async function saveRedirection(serviceId: number, redirectionId: number, payload: RedirectionSavePayload) {
  const { data, system } = await apiCall<RedirectionOneData>(
    REDIRECTION_API.save(serviceId, redirectionId),
    { ...payload },
    { method: 'POST' },
  );
  return { redirection: data.redirection, info: system.info };
}

/** The pages are asked for again (a new destination or type can move the row in or out of a filter). */
export function useSaveRedirection(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, payload }: { id: number; payload: RedirectionSavePayload }) =>
      saveRedirection(serviceId, id, payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redirectionPagesQueryKey(serviceId) }),
  });
}
