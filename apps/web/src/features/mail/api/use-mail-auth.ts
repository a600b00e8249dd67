import { useQuery } from '@tanstack/react-query';
import { mailAuthQuery } from './get-mail-auth';

/**
 * DKIM, SPF and DMARC of the service's domain. Asked again every minute while a rotation has a
 * step left: each look also moves it on, so the customer sees the steps pass.
 */
export function useMailAuth(serviceId: number) {
  return useQuery({
    ...mailAuthQuery(serviceId),
    refetchInterval: (query) => (query.state.data && query.state.data.dkim.rotation !== 'idle' ? 60_000 : false),
  });
}
