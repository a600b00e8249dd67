import type { EmptyData } from '@panel247/contract/envelope';
import type { Subdomain } from '@panel247/contract/hosting';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { subdomainPagesQueryKey } from './list-subdomain-page';
import { subdomainsQueryKey } from './list-subdomains';

/** Returns the server's info messages (the first one is shown). */
export async function deleteSubdomain(serviceId: number, subdomainId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(SUBDOMAIN_API.remove(serviceId, subdomainId), undefined, { method: 'POST' })).system
    .info;
}

/** The site leaves the cached list. */
export function useDeleteSubdomain(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subdomainId: number) => deleteSubdomain(serviceId, subdomainId),
    onSuccess: (_info, subdomainId) => {
      queryClient.setQueryData<Subdomain[]>(subdomainsQueryKey(serviceId), (list) =>
        list?.filter((item) => item.id !== subdomainId),
      );
      // the server pages: the pages are asked for again
      return queryClient.invalidateQueries({ queryKey: subdomainPagesQueryKey(serviceId) });
    },
  });
}
