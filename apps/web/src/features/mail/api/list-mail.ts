import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import type { MailListData, MailListType } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PENDING_WORK_REFRESH_MS } from '../../../lib/use-work-refresh';

/** Every mail query of a service starts with this key. */
export const mailQueryKey = (serviceId: number) => ['mail', serviceId] as const;
/** Every page of the mail list: the changes invalidate them as a whole. */
export const mailPagesQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'pages'] as const;

/** One page of the list, of one type ('all' for both). */
export type MailPageQuery = ListPageQuery & { type: MailListType };

/** Accounts and aliases in one list, paged, typed and filtered (on the address) on the server. */
export function listMail(serviceId: number, query: MailPageQuery, signal?: AbortSignal): Promise<MailListData> {
  return api<MailListData>(
    MAIL_API.list(serviceId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, type: query.type, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useMailPage(serviceId: number, query: MailPageQuery) {
  return useQuery({
    queryKey: [...mailPagesQueryKey(serviceId), query],
    queryFn: ({ signal }) => listMail(serviceId, query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}
