import type { DatabasesOneData } from '@panel247/contract/databases';
import { DDBB_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { type DatabaseList, databasesQueryKey, updateDatabases } from './list-databases';

/** The name and user come from the service; only the password is chosen. */
export async function createDatabase(serviceId: number, password: string) {
  const { data, system } = await apiCall<DatabasesOneData>(
    DDBB_API.create(serviceId),
    { password },
    { method: 'POST' },
  );
  return { database: data.ddbb, info: system.info };
}

/** The new database joins the cached list (no reload). */
export function useCreateDatabase(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => createDatabase(serviceId, password),
    onSuccess: ({ database }) =>
      queryClient.setQueryData<DatabaseList>(databasesQueryKey(serviceId), (list) =>
        updateDatabases(list, (items) => [...items.filter((item) => item.id !== database.id), database]),
      ),
  });
}
