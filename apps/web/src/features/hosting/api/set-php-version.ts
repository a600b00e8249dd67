import type { HostingServiceData } from '@panel247/contract/hosting';
import { HOSTING_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { hostingServiceQueryKey } from './get-hosting-service';

/** `phpVersion`: 'default' or one of the service's `phpVersions`; answers the service. */
export async function setPhpVersion(serviceId: number, phpVersion: string) {
  const { data, system } = await apiCall<HostingServiceData>(
    HOSTING_API.php(serviceId),
    { phpVersion },
    { method: 'POST' },
  );
  return { service: data.service, info: system.info };
}

/** The cached service is replaced by the returned one. */
export function useSetPhpVersion(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phpVersion: string) => setPhpVersion(serviceId, phpVersion),
    onSuccess: ({ service }) => queryClient.setQueryData(hostingServiceQueryKey(serviceId), service),
  });
}
