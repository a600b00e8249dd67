import type { DdbbApplyData } from '@panel247/contract/ddbb';
import { DDBB_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { databaseQueriesKey } from '../../../api/list-databases';
import { apiCall } from '../../../lib/api-client';

/** Applies the service's pending database changes now ("try again"); answers the server's message. */
export async function applyDatabaseChanges(serviceId: number) {
  return (await apiCall<DdbbApplyData>(DDBB_API.apply(serviceId), undefined, { method: 'POST' })).system.info;
}

export function useApplyDatabaseChanges(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => applyDatabaseChanges(serviceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: databaseQueriesKey(serviceId) }),
  });
}
