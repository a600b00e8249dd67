import type { EmptyData } from '@panel247/contract/envelope';
import { FTP_API } from '@panel247/contract/routes';
import type { SshKeyAddParams, SshKeyListData, SshKeyOneData } from '@panel247/contract/sftp-keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ftpQueryKey } from '../../../api/list-ftp-accounts';
import { apiCall } from '../../../lib/api-client';
import { apiGetQuery } from '../../../lib/api-query';

/** The service's SFTP keys (an FTP account's removal takes its keys: asked again then too). */
export const sftpKeysQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'keys'] as const;

/** The keys' call, shared with the boot and the server's first render (app/route-data.ts). */
export function sftpKeysQuery(serviceId: number) {
  return apiGetQuery<SshKeyListData>(sftpKeysQueryKey(serviceId), { path: FTP_API.keys(serviceId) });
}

export function useSftpKeys(serviceId: number) {
  return useQuery(sftpKeysQuery(serviceId));
}

/** `ftpId` '' : the service's own login. */
export type SftpKeyInput = Omit<SshKeyAddParams, 'id'>;

export async function addSftpKey(serviceId: number, input: SftpKeyInput) {
  const { data, system } = await apiCall<SshKeyOneData>(FTP_API.addKey(serviceId), input, { method: 'POST' });
  return { key: data.key, info: system.info };
}

/** The new key joins the cached list as the server answers it. */
export function useAddSftpKey(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SftpKeyInput) => addSftpKey(serviceId, input),
    onSuccess: ({ key }) =>
      queryClient.setQueryData<SshKeyListData>(sftpKeysQueryKey(serviceId), (data) =>
        data ? { ...data, keys: [...data.keys.filter((one) => one.id !== key.id), key] } : data,
      ),
  });
}

/** Returns the server's info messages (the first one is shown). */
export async function removeSftpKey(serviceId: number, keyId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(FTP_API.removeKey(serviceId, keyId), undefined, { method: 'POST' })).system.info;
}

export function useRemoveSftpKey(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) => removeSftpKey(serviceId, keyId),
    onSuccess: (_info, keyId) =>
      queryClient.setQueryData<SshKeyListData>(sftpKeysQueryKey(serviceId), (data) =>
        data ? { ...data, keys: data.keys.filter((one) => one.id !== keyId) } : data,
      ),
  });
}
