import { FTP_API } from '@panel247/contract/routes';
import type { SignonForm } from '@panel247/contract/signon';
import { useMutation } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/**
 * The form the browser sends to the WebFTP to log in (a one-time token, never a password): posted
 * to the provider's WebFTP, or, without one, a `get` of the panel's own file manager rooted at
 * the account's folder. `initialDirectory` is relative to the account's own folder ('' opens it).
 */
export function getWebftpLogin(serviceId: number, accountId: number, initialDirectory = ''): Promise<SignonForm> {
  return api<SignonForm>(FTP_API.login(serviceId, accountId), { initialDirectory }, { method: 'POST' });
}

/** A fresh login each time (the token is single-use), so a mutation and not a cached query. */
export function useWebftpLogin(serviceId: number) {
  return useMutation({ mutationFn: (accountId: number) => getWebftpLogin(serviceId, accountId) });
}
