import type { ApplicationListData, HostingApplication } from '@panel247/contract/installer';
import { INSTALLER_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api, getBasePath } from '../../../lib/api-client';

/** The catalogue's labels and titles come in the request's language, so the key carries it. */
export const applicationsQueryKey = (language: string) => ['installer', 'apps', language] as const;

export async function listApplications(signal?: AbortSignal): Promise<HostingApplication[]> {
  return (await api<ApplicationListData>(INSTALLER_API.list, undefined, { method: 'GET', signal })).apps;
}

/** The provider's catalogue changes rarely: kept 5 minutes. */
export function useApplications(language: string, enabled = true) {
  return useQuery({
    queryKey: applicationsQueryKey(language),
    queryFn: ({ signal }) => listApplications(signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** The logo is a plain image answer (no envelope, no CSRF header needed), so an <img> loads it. */
export function applicationLogoUrl(appId: number): string {
  return `${getBasePath()}${INSTALLER_API.logo(appId)}`;
}
