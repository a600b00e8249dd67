import type { Subdomain, SubdomainOneData } from '@panel247/contract/hosting';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { SiteSavePayload } from '../lib/site-form';
import { subdomainPagesQueryKey } from './list-subdomain-page';
import { subdomainsQueryKey } from './list-subdomains';

/** The subdomain stays; folder and SSL change (empty certificate fields keep the installed ones). */
export async function saveSubdomain(serviceId: number, subdomainId: number, payload: SiteSavePayload) {
  const { data, system } = await apiCall<SubdomainOneData>(
    SUBDOMAIN_API.save(serviceId, subdomainId),
    { ...payload },
    { method: 'POST' },
  );
  return { subdomain: data.subdomain, info: system.info };
}

/** The row is replaced by the returned site. */
export function useSaveSubdomain(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, payload }: { id: number; payload: SiteSavePayload }) => saveSubdomain(serviceId, id, payload),
    onSuccess: ({ subdomain }) => {
      queryClient.setQueryData<Subdomain[]>(subdomainsQueryKey(serviceId), (list) =>
        list?.map((item) => (item.id === subdomain.id ? subdomain : item)),
      );
      // the server pages: the pages are asked for again
      return queryClient.invalidateQueries({ queryKey: subdomainPagesQueryKey(serviceId) });
    },
  });
}
