import type { HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { hostingServiceQueryKey } from './get-hosting-service';

/** Turns parking on (`parking/active/`) or off (`parking/disable/`); answers the service. */
export async function setParking(serviceId: number, on: boolean) {
  const path = on ? HOSTING_API.parkingActive(serviceId) : HOSTING_API.parkingDisable(serviceId);
  const { data, system } = await apiCall<HostingServiceData>(path, undefined, { method: 'POST' });
  return { service: data.service, info: system.info };
}

/** The service is replaced by the returned one (spec section 4). */
export function useSetParking(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => setParking(serviceId, on),
    onSuccess: ({ service }) => queryClient.setQueryData(hostingServiceQueryKey(serviceId), service),
  });
}
