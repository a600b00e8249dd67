import type { DnssecJobData } from '@panel247/contract/dnssec';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecStateKey } from './dnssec-state';

/** Starts unsigning (a job: DS removed at the registry, the wait, then the keys). */
export async function unsignDnsZone(serviceId: number) {
  const { data, system } = await apiCall<DnssecJobData>(DNS_API.dnssecUnsign(serviceId), undefined, {
    method: 'POST',
  });
  return { job: data.job, info: system.info };
}

export function useUnsignDnsZone(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unsignDnsZone(serviceId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnssecStateKey(serviceId) }),
  });
}
