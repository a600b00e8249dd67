import { isVisible } from '@panel247/contract/constants';
import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import type { QueryClient } from '@tanstack/react-query';
import { ftpMainQuery } from '../api/get-ftp-main';
import { databasesQuery } from '../api/list-databases';
import { ftpAccountsQuery } from '../api/list-ftp-accounts';
import { permissionListQueryKey, permissionSetQueryKey } from '../api/permission-queries';
import { activityPageQuery, openingFilters } from '../features/activity/api/list-activity';
import { backupsListQuery } from '../features/backups/api/list-backups';
import { cronListQuery } from '../features/cron/api/list-cron-tasks';
import { dnsListQuery, FIRST_DNS_PAGE } from '../features/dns/api/list-dns-records';
import { domainQuery } from '../features/domain/api/get-domain';
import { dnssecListQuery } from '../features/domain/api/list-dnssec';
import { glueRecordsQuery } from '../features/domain/api/list-glue-records';
import { filesListQuery } from '../features/files/api/list-files';
import { folderFromQuery, ftpFromQuery } from '../features/files/lib/file-paths';
import { ftpPageQuery } from '../features/ftp/api/list-ftp-page';
import { sftpKeysQuery } from '../features/ftp/api/sftp-keys';
import { hostingServiceQuery } from '../features/hosting/api/get-hosting-service';
import { redirectionPageQuery } from '../features/hosting/api/list-redirection-page';
import { subdomainPageQuery } from '../features/hosting/api/list-subdomain-page';
import { mailAuthQuery } from '../features/mail/api/get-mail-auth';
import { mailSpamQuery } from '../features/mail/api/get-mail-spam';
import { FIRST_MAIL_PAGE, mailPageQuery } from '../features/mail/api/list-mail';
import { apiTokensQuery } from '../features/preferences/api/list-api-tokens';
import { sessionsQuery } from '../features/preferences/api/list-sessions';
import { passkeysQuery } from '../features/preferences/api/passkey-list';
import { twoFactorStatusQuery } from '../features/preferences/api/two-factor-status';
import { statsSitesQuery } from '../features/stats/api/stats';
import { accountUserQuery } from '../features/users/api/get-user';
import { FIRST_USERS_PAGE, usersPageQuery } from '../features/users/api/list-users';
import { type ApiGetQuery, FIRST_LIST_PAGE } from '../lib/api-query';
import { gateOpens, type ItemGateRule } from '../lib/item-gate-rule';

/**
 * The first data of an item's view, asked by the boot beside the view's code (the router's
 * handles name it) instead of at the view's first render: the list call leaves with the code.
 * Each view and its prefetch share one query's key and call, and one gate: the data is asked only
 * when the item's permission set, as the page carried it, opens the view, so a missing item or a
 * view the user may not see asks for nothing more than it did before. The server draws a signed-in
 * page's first screen with the same queries (apps/web/src/server/render-page.tsx).
 */
export interface ItemViewData {
  gate: ItemGateRule;
  /**
   * The first queries of item `id`, whose permission set opens the view: a card it hides asks for
   * nothing. `place` is what else of the page the view reads (the folder in the address, the
   * language a list is worded in).
   */
  queries: (id: number, set: PermissionSetData, place: ViewPlace) => ApiGetQuery<unknown>[];
}

/** What a view reads of its page besides the item: the address's query and the page's language. */
export interface ViewPlace {
  search: URLSearchParams;
  language: string;
}

export const MAIL_VIEW: ItemViewData = {
  gate: { requires: ['servicemail'], flag: 'hasMail' },
  queries: (id) => [mailPageQuery(id, FIRST_MAIL_PAGE), mailAuthQuery(id)],
};

export const DNS_VIEW: ItemViewData = {
  gate: { requires: ['service_dnszone'], flag: 'hasService' },
  queries: (id) => [dnsListQuery(id, FIRST_DNS_PAGE)],
};

export const FTP_VIEW: ItemViewData = {
  gate: { requires: ['service_ftp'], flag: 'hasService' },
  // the server card and the SFTP card are on the first screen too: without them it drew skeletons
  queries: (id) => [ftpPageQuery(id, FIRST_LIST_PAGE), ftpMainQuery(id), sftpKeysQuery(id)],
};

export const DOMAIN_VIEW: ItemViewData = {
  gate: { requires: ['domain'], flag: 'hasDomain' },
  // the domain with its contacts, and the glue records and DNSSEC entries its DNS card previews
  queries: (id, { permissions }) => [
    domainQuery(id),
    ...(isVisible(permissions.domain_gluerecords) ? [glueRecordsQuery(id)] : []),
    ...(isVisible(permissions.domain_dnssec) ? [dnssecListQuery(id)] : []),
  ],
};

export const HOSTING_VIEW: ItemViewData = {
  gate: { requires: ['service', 'service_parking', 'service_redirects'], flag: 'hasService' },
  // the service's cards (with the FTP server and the account WebFTP signs on as) and the
  // redirections' first page, each as the set shows it; the site builder's choice loads after
  queries: (id, { permissions }) => [
    ...(isVisible(permissions.service) ? [hostingServiceQuery(id)] : []),
    ...(isVisible(permissions.service) && isVisible(permissions.service_ftp)
      ? [ftpMainQuery(id), ftpAccountsQuery(id)]
      : []),
    ...(isVisible(permissions.service_redirects) ? [redirectionPageQuery(id, FIRST_LIST_PAGE)] : []),
  ],
};

export const SITES_VIEW: ItemViewData = {
  gate: { requires: ['service_subdomains'], flag: 'hasService' },
  queries: (id) => [subdomainPageQuery(id, FIRST_LIST_PAGE)],
};

export const DATABASES_VIEW: ItemViewData = {
  gate: { requires: ['service_ddbb'], flag: 'hasService' },
  queries: (id) => [databasesQuery(id)],
};

export const BACKUPS_VIEW: ItemViewData = {
  gate: { requires: ['service_backups'], flag: 'hasService' },
  queries: (id) => [backupsListQuery(id)],
};

export const FILES_VIEW: ItemViewData = {
  // the file manager works on the FTP accounts' files: it shows to whoever sees them
  gate: { requires: ['service_ftp'], flag: 'hasService' },
  // the folder the address names, of the home or of the account `?ftp=` names
  queries: (id, _set, { search }) => [
    filesListQuery({ serviceId: id, ftp: ftpFromQuery(search.get('ftp')) }, folderFromQuery(search.get('path'))),
  ],
};

export const CRON_VIEW: ItemViewData = {
  gate: { requires: ['service_cron'], flag: 'hasService' },
  queries: (id, _set, { language }) => [cronListQuery(id, language)],
};

export const STATS_VIEW: ItemViewData = {
  gate: { requires: ['service_stats'], flag: 'hasService' },
  // the sites and their months; the chosen site's month is asked once the view knows the sites
  queries: (id) => [statsSitesQuery(id)],
};

export const SPAM_VIEW: ItemViewData = {
  gate: { requires: ['servicemail_spam'], flag: 'hasMail' },
  queries: (id) => [mailSpamQuery(id)],
};

export const ITEM_ACTIVITY_VIEW: ItemViewData = {
  // anyone who sees the item sees its log: the server keeps the entries of the areas they may see
  gate: { requires: [] },
  queries: (id) => [activityPageQuery(openingFilters(id), 1)],
};

/**
 * The first data of a view of the account rather than of one item (the log, the users, the
 * preferences), asked and drawn as an item view's is. `opens` is what the user's permission list
 * must hold for the view to show (the users' pages: the right to manage users); without the list
 * in the page, such a view asks for nothing before it renders.
 */
export interface AccountViewData {
  opens?: (list: PermissionListData) => boolean;
  /** The first queries; `id` is the address's own (a user's page), null where it has none. */
  queries: (place: ViewPlace, id: number | null) => ApiGetQuery<unknown>[];
}

export const ACTIVITY_VIEW: AccountViewData = {
  queries: () => [activityPageQuery(openingFilters(), 1)],
};

export const USERS_VIEW: AccountViewData = {
  opens: (list) => list.manageUsers === true,
  queries: () => [usersPageQuery(FIRST_USERS_PAGE)],
};

export const USER_VIEW: AccountViewData = {
  opens: (list) => list.manageUsers === true,
  queries: (_place, id) => (id === null ? [] : [accountUserQuery(id)]),
};

export const PREFERENCES_VIEW: AccountViewData = {
  // the security cards under the form: each asks for its own list
  queries: () => [twoFactorStatusQuery(), passkeysQuery(), sessionsQuery(), apiTokensQuery()],
};

/** What a page knows of the user's permissions when its view's first data is asked: what it carried. */
export interface PermissionsKnown {
  list: PermissionListData | undefined;
  set: (id: number) => PermissionSetData | undefined;
}

/** The first queries of the view an address names, once the page's permissions and place are known. */
export type FirstQueries = (known: PermissionsKnown, place: ViewPlace) => ApiGetQuery<unknown>[];

/** Item `id`'s first queries of `view` when its permission set opens the view; none otherwise. */
export function itemFirstQueries(view: ItemViewData, id: number): FirstQueries {
  return (known, place) => {
    const set = known.set(id);
    return set && gateOpens(set, view.gate) ? view.queries(id, set, place) : [];
  };
}

/** `view`'s first queries when the permission list opens it (or it needs nothing of it); none otherwise. */
export function accountFirstQueries(view: AccountViewData, id: number | null): FirstQueries {
  return ({ list }, place) => (!view.opens || (list && view.opens(list)) ? view.queries(place, id) : []);
}

/** Asks for a view's first data with what the cache holds of the user's permissions (the page's boot data). */
export function prefetchFirstQueries(queryClient: QueryClient, first: FirstQueries, place: ViewPlace): void {
  const known: PermissionsKnown = {
    list: queryClient.getQueryData<PermissionListData>(permissionListQueryKey),
    set: (id) => queryClient.getQueryData<PermissionSetData>(permissionSetQueryKey(id)),
  };
  for (const query of first(known, place)) void queryClient.prefetchQuery(query);
}
