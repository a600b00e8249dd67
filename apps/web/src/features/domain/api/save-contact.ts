import type { DomainData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall, type Params } from '../../../lib/api-client';
import { domainQueryKey } from './get-domain';

/** Admin, billing or tech (needs domain_contacts action); the answer is the whole domain data. */
export async function saveContact(id: number, payload: Params) {
  const { data, system } = await apiCall<DomainData>(DOMAIN_API.contactsSave(id), payload, { method: 'POST' });
  return { data, info: system.info };
}

export function useSaveContact(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: Params) => saveContact(id, payload),
    onSuccess: ({ data }) => queryClient.setQueryData(domainQueryKey(id), data),
  });
}
