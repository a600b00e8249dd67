import type { InstallAppData, InstallJob } from '@panel247/contract/installer';
import { INSTALLER_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';

/** Starts the install; the server answers at once with the job it runs in the background. */
export async function installApplication(serviceId: number, payload: Params): Promise<InstallJob> {
  return (await api<InstallAppData>(INSTALLER_API.install(serviceId), payload, { method: 'POST' })).job;
}

export function useInstallApplication(serviceId: number) {
  return useMutation({ mutationFn: (payload: Params) => installApplication(serviceId, payload) });
}
