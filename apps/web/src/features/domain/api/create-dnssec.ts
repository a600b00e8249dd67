import type { DnssecEntry } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecQueryKey } from './list-dnssec';

/** Digest type: keytag, algorithm, digesttype, digest. Public-key type: flags, protocols, algorithm, digest (the key). */
export type DnssecCreateInput =
  | { kind: 'digest'; keytag: string; algorithm: string; digesttype: string; digest: string }
  | { kind: 'pubkey'; flags: string; protocols: string; algorithm: string; digest: string };

export async function createDnssec(id: number, input: DnssecCreateInput) {
  const { kind, ...params } = input;
  const { data, system } = await apiCall<{ dnssec: DnssecEntry[] }>(DOMAIN_API.dnssecCreate(id), params, {
    method: 'POST',
  });
  return { created: data.dnssec, info: system.info, kind };
}

export function useCreateDnssec(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DnssecCreateInput) => createDnssec(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dnssecQueryKey(id) }),
  });
}
