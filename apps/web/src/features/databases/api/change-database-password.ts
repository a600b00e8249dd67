import type { DatabasesOneData } from '@panel247/contract/databases';
import { DDBB_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DatabaseList, databasesQueryKey, updateDatabases } from '../../../api/list-databases';
import { apiCall } from '../../../lib/api-client';

export async function changeDatabasePassword(serviceId: number, databaseId: number, password: string) {
  const { data, system } = await apiCall<Partial<DatabasesOneData>>(
    DDBB_API.changePassword(serviceId, databaseId),
    { password },
    { method: 'POST' },
  );
  return { database: data?.ddbb ?? null, info: system.info };
}

/** The database's row is replaced by the one the server returns. */
export function useChangeDatabasePassword(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ databaseId, password }: { databaseId: number; password: string }) =>
      changeDatabasePassword(serviceId, databaseId, password),
    onSuccess: ({ database }) => {
      if (!database) return;
      queryClient.setQueryData<DatabaseList>(databasesQueryKey(serviceId), (list) =>
        updateDatabases(list, (items) => items.map((item) => (item.id === database.id ? database : item))),
      );
    },
  });
}
