import type { RedirectionListData } from '@panel247/contract/hosting';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { REDIRECTION_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listPageQuery } from '../../../lib/api-query';
import { hostingQueryKey } from './get-hosting-service';

/** Every page of a service's redirections: the changes invalidate them as a whole. */
export const redirectionPagesQueryKey = (serviceId: number) =>
  [...hostingQueryKey(serviceId), 'redirection-pages'] as const;

/**
 * One page of the redirections by origin, paged and filtered (origin, destination, type) on the
 * server: its key and call, which the card's hook, the boot's prefetch and the server's first
 * render share.
 */
export function redirectionPageQuery(serviceId: number, query: ListPageQuery) {
  return listPageQuery<RedirectionListData>(
    redirectionPagesQueryKey(serviceId),
    REDIRECTION_API.list(serviceId),
    query,
  );
}

export function useRedirectionPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    ...redirectionPageQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
