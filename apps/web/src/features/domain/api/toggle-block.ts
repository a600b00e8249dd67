import type { DomainOnlyData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { setDomainInCache } from '../lib/domain-cache';

/** Flips the modification block; the answer is the updated domain. */
export async function toggleBlock(id: number) {
  const { data, system } = await apiCall<DomainOnlyData>(DOMAIN_API.toggleBlock(id), undefined, { method: 'POST' });
  return { domain: data.domain, info: system.info };
}

export function useToggleBlock(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => toggleBlock(id),
    onSuccess: ({ domain }) => setDomainInCache(queryClient, id, domain),
  });
}
