import type { DomainData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall, type Params } from '../../../lib/api-client';
import { domainQueryKey } from './get-domain';

/** The registrant (needs domain_ownercontacts action); the answer is the whole domain data. */
export async function saveOwnerContact(id: number, payload: Params) {
  const { data, system } = await apiCall<DomainData>(DOMAIN_API.ownerSave(id), payload, { method: 'POST' });
  return { data, info: system.info };
}

export function useSaveOwnerContact(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: Params) => saveOwnerContact(id, payload),
    onSuccess: ({ data }) => queryClient.setQueryData(domainQueryKey(id), data),
  });
}
