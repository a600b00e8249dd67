import type { TransferKeyData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { domainRootKey } from './get-domain';

export async function getTransferKey(id: number, signal?: AbortSignal): Promise<string> {
  return (await api<TransferKeyData>(DOMAIN_API.transferKey(id), undefined, { method: 'GET', signal })).transferkey;
}

/** Read when the dialog opens and never kept afterwards (a secret). */
export function useTransferKey(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...domainRootKey(id), 'transferkey'],
    queryFn: ({ signal }) => getTransferKey(id, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
