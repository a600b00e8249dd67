import type { ApiTokenResourcesData } from '@panel247/contract/api-tokens';
import { API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The resources a new token may name, each with the most it may get there (the user's own level). */
export function useApiTokenResources(enabled: boolean) {
  return useQuery({
    queryKey: ['user', 'apitoken-resources'],
    queryFn: ({ signal }) => api<ApiTokenResourcesData>(API.apiTokenResources, undefined, { method: 'GET', signal }),
    enabled,
  });
}
