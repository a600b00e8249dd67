import type { DnsEditParams, DomainOnlyData } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { setDomainInCache } from '../lib/domain-cache';
import { dnsInitQueryKey } from './get-dns-init';

/** `dns`: the custom servers in row order; field errors come back as `dns[N]` by this position. */
export type DnsEditInput = Omit<DnsEditParams, 'id' | 'ds' | 'publishDs'> &
  Partial<Pick<DnsEditParams, 'ds' | 'publishDs'>>;

export async function editDns(id: number, input: DnsEditInput) {
  const { data, system } = await apiCall<DomainOnlyData>(
    DOMAIN_API.dnsEdit(id),
    {
      'default-ns': input['default-ns'],
      'dns[]': input['default-ns'] === '1' ? [] : input.dns,
      ...(input.ds ? { ds: input.ds } : {}),
      ...(input.publishDs ? { publishDs: input.publishDs } : {}),
    },
    { method: 'POST' },
  );
  return { domain: data.domain, info: system.info };
}

export function useEditDns(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DnsEditInput) => editDns(id, input),
    onSuccess: ({ domain }) => {
      setDomainInCache(queryClient, id, domain);
      void queryClient.invalidateQueries({ queryKey: dnsInitQueryKey(id) });
    },
  });
}
