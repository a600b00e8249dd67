import type { consoleServersDataSchema } from '@panel247/contract/console';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { CONSOLE_API, consoleApi, consoleQueryKey, consoleRetry } from './console-api';

export type ServersData = z.infer<typeof consoleServersDataSchema>;
export type ConsoleServer = ServersData['servers'][number];

/** How often the layout's warning asks whether a server went down: once a minute at most. */
export const SERVERS_REFRESH_MS = 60_000;

export function listServers(signal?: AbortSignal): Promise<ServersData> {
  return consoleApi<ServersData>(CONSOLE_API.servers, undefined, { method: 'GET', signal });
}

/**
 * The provider's servers and how many are down: one query for the servers' page and the layout's
 * warning, read again each minute while the console is open.
 */
export function useServers() {
  return useQuery({
    queryKey: [...consoleQueryKey, 'servers'],
    queryFn: ({ signal }) => listServers(signal),
    staleTime: SERVERS_REFRESH_MS / 2,
    refetchInterval: SERVERS_REFRESH_MS,
    retry: consoleRetry,
  });
}
