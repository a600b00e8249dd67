import type { Alias, AliasListData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './list-mailboxes';

export const aliasesQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'aliases'] as const;

export async function listAliases(serviceId: number, signal?: AbortSignal): Promise<Alias[]> {
  return (await api<AliasListData>(MAIL_API.aliases(serviceId), undefined, { method: 'GET', signal })).alias;
}

export function useAliases(serviceId: number, enabled = true) {
  return useQuery({
    queryKey: aliasesQueryKey(serviceId),
    queryFn: ({ signal }) => listAliases(serviceId, signal),
    enabled,
  });
}
