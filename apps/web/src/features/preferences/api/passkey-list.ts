import type { PasskeyListData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const PASSKEYS_KEY = ['user', 'passkeys'] as const;

export function listPasskeys(signal?: AbortSignal): Promise<PasskeyListData> {
  return api<PasskeyListData>(API.passkeyList, undefined, { method: 'GET', signal });
}

export function usePasskeys() {
  return useQuery({ queryKey: PASSKEYS_KEY, queryFn: ({ signal }) => listPasskeys(signal) });
}
