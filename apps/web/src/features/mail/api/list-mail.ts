import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { ListPageQuery } from '@panel247/contract/list-query';
import type { MailListData, MailListType } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { apiGetQuery } from '../../../lib/api-query';

/** Every mail query of a service starts with this key. */
export const mailQueryKey = (serviceId: number) => ['mail', serviceId] as const;
/** Every page of the mail list: the changes invalidate them as a whole. */
export const mailPagesQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'pages'] as const;

/** One page of the list, of one type ('all' for both). */
export type MailPageQuery = ListPageQuery & { type: MailListType };

/** The page the view opens on: the first, of both types, unfiltered. */
export const FIRST_MAIL_PAGE: MailPageQuery = { page: 1, type: 'all', filter: '' };

/**
 * One page of accounts and aliases in one list, paged, typed and filtered (on the address) on the
 * server: its key and call, which the view's hook, the boot's prefetch and the server's first
 * render (app/route-data.ts) share.
 */
export function mailPageQuery(serviceId: number, query: MailPageQuery) {
  return apiGetQuery<MailListData>([...mailPagesQueryKey(serviceId), query], {
    path: MAIL_API.list(serviceId),
    params: { page: query.page, pageSize: LIST_PAGE_SIZE, type: query.type, filter: query.filter },
  });
}
