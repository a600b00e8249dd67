import type { RedirectionOneData } from '@panel247/contract/hosting';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { RedirectionCreatePayload } from '../lib/redirection-form';
import { redirectionPagesQueryKey } from './list-redirection-page';

export async function createRedirection(serviceId: number, payload: RedirectionCreatePayload) {
  const { data, system } = await apiCall<RedirectionOneData>(
    REDIRECTION_API.create(serviceId),
    { ...payload },
    { method: 'POST' },
  );
  return { redirection: data.redirection, info: system.info };
}

/** The pages are asked for again: the server places the new redirection. */
export function useCreateRedirection(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: RedirectionCreatePayload) => createRedirection(serviceId, payload),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redirectionPagesQueryKey(serviceId) }),
  });
}
