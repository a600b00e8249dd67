import type { EmptyData } from '@panel247/contract/envelope';
import { DDBB_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DatabaseList, databasesQueryKey, updateDatabases } from '../../../api/list-databases';
import { apiCall } from '../../../lib/api-client';

/** Returns the server's info messages (the first one is shown). */
export async function deleteDatabase(serviceId: number, databaseId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(DDBB_API.remove(serviceId, databaseId), undefined, { method: 'POST' })).system.info;
}

/** The database leaves the cached list. */
export function useDeleteDatabase(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (databaseId: number) => deleteDatabase(serviceId, databaseId),
    onSuccess: (_info, databaseId) =>
      queryClient.setQueryData<DatabaseList>(databasesQueryKey(serviceId), (list) =>
        updateDatabases(list, (items) => items.filter((item) => item.id !== databaseId)),
      ),
  });
}
