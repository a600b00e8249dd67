import type { AuthCodeData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export async function getAuthCode(id: number, signal?: AbortSignal): Promise<string> {
  return (await api<AuthCodeData>(DOMAIN_API.authCode(id), undefined, { method: 'GET', signal })).authCode;
}

/** Read when the dialog opens and never kept afterwards (a secret). */
export function useAuthCode(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...domainRootKey(id), 'authcode'],
    queryFn: ({ signal }) => getAuthCode(id, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
