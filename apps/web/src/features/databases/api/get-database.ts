import type { DatabasesOneData } from '@panel247/contract/databases';
import { DDBB_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { databaseQueriesKey } from '../../../api/list-databases';
import { api } from '../../../lib/api-client';

/** One database with its user's password ("show password"). */
export async function getDatabase(serviceId: number, databaseId: number, signal?: AbortSignal) {
  return (await api<DatabasesOneData>(DDBB_API.one(serviceId, databaseId), undefined, { method: 'GET', signal })).ddbb;
}

/** Read each time the dialog opens and never kept: a password stays in memory only while shown. */
export function useDatabase(serviceId: number, databaseId: number | null) {
  return useQuery({
    queryKey: [...databaseQueriesKey(serviceId), 'one', databaseId],
    queryFn: ({ signal }) => getDatabase(serviceId, databaseId as number, signal),
    enabled: databaseId !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
}
