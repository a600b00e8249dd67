import type { DatabasesOneData } from '@panel247/contract/databases';
import { DDBB_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DatabaseList, databasesQueryKey, updateDatabases } from '../../../api/list-databases';
import { apiCall } from '../../../lib/api-client';

/** Switches access from anywhere on or off; answers the database as it is now. */
export async function toggleExternalAccess(serviceId: number, databaseId: number) {
  const { data, system } = await apiCall<DatabasesOneData>(
    DDBB_API.toggleExternalAccess(serviceId, databaseId),
    undefined,
    {
      method: 'POST',
    },
  );
  return { database: data.ddbb, info: system.info };
}

/** The database's row is replaced by the returned one (spec section 4). */
export function useToggleExternalAccess(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (databaseId: number) => toggleExternalAccess(serviceId, databaseId),
    onSuccess: ({ database }) =>
      queryClient.setQueryData<DatabaseList>(databasesQueryKey(serviceId), (list) =>
        updateDatabases(list, (items) => items.map((item) => (item.id === database.id ? database : item))),
      ),
  });
}
