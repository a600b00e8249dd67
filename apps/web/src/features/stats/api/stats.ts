import type { EmptyData } from '@panel247/contract/envelope';
import { STATS_API } from '@panel247/contract/routes';
import type { StatsSiteData, StatsSitesData } from '@panel247/contract/stats';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiCall } from '../../../lib/api-client';
import { apiGetQuery } from '../../../lib/api-query';

/** Everything cached about a service's statistics. */
export const statsQueryKey = (serviceId: number) => ['stats', serviceId] as const;

/**
 * The service's sites, each with its months, and when the statistics were last refreshed: the
 * view's first call, which its hook, the boot's prefetch and the server's first render share.
 */
export function statsSitesQuery(serviceId: number) {
  return apiGetQuery<StatsSitesData>([...statsQueryKey(serviceId), 'sites'], { path: STATS_API.sites(serviceId) });
}

export function useStatsSites(serviceId: number) {
  return useQuery(statsSitesQuery(serviceId));
}

/** One site's month ('' : its newest); nothing is asked for until a site is chosen. */
export function useStatsSite(serviceId: number, host: string | null, month: string) {
  return useQuery({
    queryKey: [...statsQueryKey(serviceId), 'site', host, month],
    queryFn: ({ signal }) =>
      api<StatsSiteData>(STATS_API.site(serviceId), { host: host ?? '', month }, { method: 'GET', signal }),
    enabled: host !== null,
  });
}

/** Asks the web server to read the logs now; the statistics are read again a little later. */
export function useRefreshStats(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await apiCall<EmptyData>(STATS_API.refresh(serviceId), undefined, { method: 'POST' })).system.info,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statsQueryKey(serviceId) }),
  });
}
