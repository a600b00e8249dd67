import type { Subdomain, SubdomainOneData } from '@panel247/contract/hosting';
import { SUBDOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { SiteCreatePayload } from '../lib/site-form';
import { subdomainPagesQueryKey } from './list-subdomain-page';
import { subdomainsQueryKey } from './list-subdomains';

export async function createSubdomain(serviceId: number, payload: SiteCreatePayload) {
  const { data, system } = await apiCall<SubdomainOneData>(
    SUBDOMAIN_API.create(serviceId),
    { ...payload },
    { method: 'POST' },
  );
  return { subdomain: data.subdomain, info: system.info };
}

/** The new site joins the cached list (no reload). */
export function useCreateSubdomain(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: SiteCreatePayload) => createSubdomain(serviceId, payload),
    onSuccess: ({ subdomain }) => {
      queryClient.setQueryData<Subdomain[]>(subdomainsQueryKey(serviceId), (list) => [
        ...(list ?? []).filter((item) => item.id !== subdomain.id),
        subdomain,
      ]);
      // the server pages: the pages are asked for again
      return queryClient.invalidateQueries({ queryKey: subdomainPagesQueryKey(serviceId) });
    },
  });
}
