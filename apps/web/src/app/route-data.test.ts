// @vitest-environment node
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { permissionListQueryKey, permissionSetQueryKey } from '../api/permission-queries';
import { envelope, stubApi } from '../test/api-stub';
import {
  ACTIVITY_VIEW,
  accountFirstQueries,
  CRON_VIEW,
  DNS_VIEW,
  FILES_VIEW,
  FTP_VIEW,
  HOSTING_VIEW,
  itemFirstQueries,
  MAIL_VIEW,
  PREFERENCES_VIEW,
  prefetchFirstQueries,
  USERS_VIEW,
} from './route-data';

afterEach(() => vi.unstubAllGlobals());

const visible = { servicemail: 'write', service_dnszone: 'read', service_ftp: 'disabled' };
const SET = { id: 7, reference: 'demo.test', hasMail: true, hasService: true, hasDomain: false, permissions: visible };

/** The page the views are asked for: no query in the address, in Spanish. */
const PLACE = { search: new URLSearchParams(), language: 'es' };

function clientWith(set: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (set) client.setQueryData(permissionSetQueryKey(7), set);
  return client;
}

describe('an item view’s first data, asked beside its code', () => {
  it('asks for the first page of the mail view (and its authentication card) with the view’s own keys', async () => {
    const calls = stubApi(() => envelope({}));
    const client = clientWith(SET);
    prefetchFirstQueries(client, itemFirstQueries(MAIL_VIEW, 7), PLACE);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => `${call.method} ${call.path}?${call.params}`)).toEqual([
      `GET service/7/mail/list/?page=1&pageSize=${LIST_PAGE_SIZE}&type=all&filter=`,
      'GET service/7/mail/auth/?',
    ]);
    expect(client.getQueryData(['mail', 7, 'pages', { page: 1, type: 'all', filter: '' }])).toEqual({});
    expect(client.getQueryData(['mail', 7, 'auth'])).toEqual({});
  });

  it('asks for the DNS view’s first page when its permission is visible', async () => {
    const calls = stubApi(() => envelope({}));
    const client = clientWith(SET);
    prefetchFirstQueries(client, itemFirstQueries(DNS_VIEW, 7), PLACE);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => call.path)).toEqual(['service/7/dns/list/']);
  });

  it('asks for the FTP view’s first page, its server card and its SFTP keys when its permission is visible', async () => {
    const calls = stubApi(() => envelope({}));
    const client = clientWith({ ...SET, permissions: { ...visible, service_ftp: 'write' } });
    prefetchFirstQueries(client, itemFirstQueries(FTP_VIEW, 7), PLACE);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => call.path)).toEqual([
      'service/7/ftp/list/',
      'service/7/ftp/main/',
      'service/7/ftp/keys/',
    ]);
  });

  it('asks for the hosting overview’s cards, and keeps of each answer what the card reads', async () => {
    const calls = stubApi((call) =>
      envelope(call.path === 'service/7/' ? { service: { id: 7 } } : { ftps: [{ id: 1 }], ftp: {}, redirection: [] }),
    );
    const permissions = { service: 'write', service_ftp: 'read', service_redirects: 'read' };
    const client = clientWith({ ...SET, permissions });
    prefetchFirstQueries(client, itemFirstQueries(HOSTING_VIEW, 7), PLACE);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => call.path)).toEqual([
      'service/7/',
      'service/7/ftp/main/',
      'service/7/ftp/list/',
      'service/7/redirection/list/',
    ]);
    expect(client.getQueryData(['hosting', 7, 'service'])).toEqual({ id: 7 });
    expect(client.getQueryData(['ftp', 7, 'accounts'])).toEqual([{ id: 1 }]);
  });

  it('asks for the folder the file manager’s address names, and the tasks in the page’s language', async () => {
    const calls = stubApi(() => envelope({}));
    const client = clientWith({ ...SET, permissions: { service_ftp: 'read', service_cron: 'read' } });
    prefetchFirstQueries(client, itemFirstQueries(FILES_VIEW, 7), {
      search: new URLSearchParams('ftp=3&path=www'),
      language: 'es',
    });
    prefetchFirstQueries(client, itemFirstQueries(CRON_VIEW, 7), { ...PLACE, language: 'ca' });
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => `${call.path}?${call.params}`)).toEqual([
      'service/7/files/list/?ftp=3&path=www',
      'service/7/cron/list/?',
    ]);
    expect(client.getQueryData(['files', 7, 3, 'list', 'www'])).toEqual({});
    expect(client.getQueryData(['cron', 7, 'list', 'ca'])).toEqual({});
  });

  it('asks nothing for a view the set does not open, nor without the set', () => {
    const calls = stubApi(() => envelope({}));
    prefetchFirstQueries(clientWith(SET), itemFirstQueries(FTP_VIEW, 7), PLACE); // service_ftp disabled
    prefetchFirstQueries(clientWith({ ...SET, hasMail: false }), itemFirstQueries(MAIL_VIEW, 7), PLACE);
    prefetchFirstQueries(clientWith(null), itemFirstQueries(DNS_VIEW, 7), PLACE); // a missing item: no set in the page
    expect(calls).toEqual([]);
  });

  it('asks for the users’ first page only when the permission list the page carried lets the user manage them', async () => {
    const calls = stubApi(() => envelope({}));
    const manager = clientWith(null);
    manager.setQueryData(permissionListQueryKey, { permissions: [], manageUsers: true });
    prefetchFirstQueries(manager, accountFirstQueries(USERS_VIEW, null), PLACE);
    await vi.waitFor(() => expect(manager.isFetching()).toBe(0));
    expect(calls.map((call) => `${call.path}?${call.params}`)).toEqual([
      `users/list/?page=1&pageSize=${LIST_PAGE_SIZE}&filter=&sort=username&order=asc`,
    ]);
    expect(manager.getQueryData(['users', 'list', { page: 1, filter: '', sort: 'username', order: 'asc' }])).toEqual(
      {},
    );
    calls.length = 0;
    const other = clientWith(null);
    other.setQueryData(permissionListQueryKey, { permissions: [] });
    prefetchFirstQueries(other, accountFirstQueries(USERS_VIEW, null), PLACE);
    // nor without the list: the view decides once it has it
    prefetchFirstQueries(clientWith(null), accountFirstQueries(USERS_VIEW, null), PLACE);
    expect(calls).toEqual([]);
  });

  it('asks for the account’s log and the preferences’ cards whatever the permissions', async () => {
    const calls = stubApi(() => envelope({}));
    const client = clientWith(null);
    prefetchFirstQueries(client, accountFirstQueries(ACTIVITY_VIEW, null), PLACE);
    prefetchFirstQueries(client, accountFirstQueries(PREFERENCES_VIEW, null), PLACE);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(calls.map((call) => call.path)).toEqual([
      'activity/list/',
      'user/twofactor/',
      'user/passkeys/',
      'user/sessions/',
      'user/apitokens/',
    ]);
  });
});
