import type { DnssecZoneData } from '@panel247/contract/dnssec';
import { DNS_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecStateKey } from './dnssec-state';

/** Signs the zone and, with `publish` (and the domain's right), publishes its DS at the registry. */
export async function signDnsZone(serviceId: number, publish: boolean) {
  const { data, system } = await apiCall<DnssecZoneData>(
    DNS_API.dnssecSign(serviceId),
    { publish: publish ? '1' : '0' },
    { method: 'POST' },
  );
  return { data, info: system.info };
}

export function useSignDnsZone(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (publish: boolean) => signDnsZone(serviceId, publish),
    onSuccess: ({ data }) => queryClient.setQueryData(dnssecStateKey(serviceId), data),
  });
}
