import type { PasskeyListData } from '@panel247/contract/passkey';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../../../lib/api-query';

export const PASSKEYS_KEY = ['user', 'passkeys'] as const;

/** The user's passkeys: a card of the preferences' first screen. */
export function passkeysQuery() {
  return apiGetQuery<PasskeyListData>(PASSKEYS_KEY, { path: API.passkeyList });
}

export function usePasskeys() {
  return useQuery(passkeysQuery());
}
