import type { DnssecCreateData, DnssecCreateParams } from '@panel247/contract/domain';
import { DOMAIN_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { dnssecQueryKey } from './list-dnssec';

/** The contract's fields as typed in the form: the server reads the numbers from the text. */
type Typed<K extends keyof DnssecCreateParams> = Record<K, string>;

/** Digest type: keytag, algorithm, digesttype, digest. Public-key type: flags, protocols, algorithm, digest (the key). */
export type DnssecCreateInput =
  | ({ kind: 'digest' } & Typed<'keytag' | 'algorithm' | 'digesttype' | 'digest'>)
  | ({ kind: 'pubkey' } & Typed<'flags' | 'protocols' | 'algorithm' | 'digest'>);

export async function createDnssec(id: number, input: DnssecCreateInput) {
  const { kind, ...params } = input;
  const { data, system } = await apiCall<DnssecCreateData>(DOMAIN_API.dnssecCreate(id), params, {
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
