import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, stubApi } from '../test/api-stub';

// The module's query client is the app's one: each test gets a fresh copy of the module.
async function freshQueryClient() {
  vi.resetModules();
  return import('./query-client');
}

const USER = { username: 'admin', domainName: 'demo.test' };

beforeEach(() => {
  delete document.documentElement.dataset.session;
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.session;
});

describe('the boot prefetch of a signed-in screen', () => {
  it("asks for the permission list and the item's permission set once the session is known", async () => {
    const calls = stubApi((call) =>
      envelope(call.path === 'user/info/' ? USER : call.path === 'permission/list/' ? { permissions: [] } : { id: 7 }),
    );
    const { prefetchPermissions, prefetchUserInfo, queryClient } = await freshQueryClient();
    await prefetchUserInfo();
    prefetchPermissions('/admin/7/service/dns/');
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST user/info/',
      'GET permission/list/',
      'POST permission/7/',
    ]);
    expect(queryClient.getQueryData(['permissions', 'set', 7])).toEqual({ id: 7 });
  });

  it('asks only for the permission list outside an item', async () => {
    const calls = stubApi((call) => envelope(call.path === 'user/info/' ? USER : { permissions: [] }));
    const { prefetchPermissions, prefetchUserInfo, queryClient } = await freshQueryClient();
    await prefetchUserInfo();
    prefetchPermissions('/admin/domain/');
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(calls.map((call) => call.path)).toEqual(['user/info/', 'permission/list/']);
  });

  it('asks for nothing without a session, which would answer "session lost"', async () => {
    document.documentElement.dataset.session = 'none';
    const calls = stubApi(() => envelope({}));
    const { prefetchPermissions, prefetchUserInfo } = await freshQueryClient();
    await prefetchUserInfo();
    prefetchPermissions('/admin/7/service/dns/');
    expect(calls).toEqual([]);
  });
});

describe('a stale permission set', () => {
  it('is asked again, with the list, when an item’s call answers 404 while the set opens its view', async () => {
    const calls = stubApi((call) =>
      call.path === 'service/7/mail/list/' ? envelope(null, { status: 404 }) : envelope({ permissions: [] }),
    );
    const { queryClient } = await freshQueryClient();
    const { api } = await import('../lib/api-client');
    // on screen: the gate and the menus watch the set and the list
    for (const queryKey of [
      ['permissions', 'set', 7],
      ['permissions', 'list'],
    ]) {
      queryClient.setQueryData(queryKey, { id: 7 });
      const queryFn = () => api(queryKey.length === 3 ? 'permission/7/' : 'permission/list/');
      new QueryObserver(queryClient, { queryKey, queryFn, staleTime: Number.POSITIVE_INFINITY }).subscribe(() => {});
    }
    await queryClient.prefetchQuery({ queryKey: ['mail', 7, 'pages'], queryFn: () => api('service/7/mail/list/') });
    await vi.waitFor(() => expect(calls.map((call) => call.path)).toContain('permission/list/'));
    expect(calls.map((call) => call.path)).toEqual(['service/7/mail/list/', 'permission/7/', 'permission/list/']);
  });

  it('is left alone by a failure of another kind, or of an item it does not hold', async () => {
    const calls = stubApi(() => envelope(null, { status: 500 }));
    const { queryClient } = await freshQueryClient();
    queryClient.setQueryData(['permissions', 'set', 7], { id: 7 });
    const { api } = await import('../lib/api-client');
    await queryClient.prefetchQuery({
      queryKey: ['mail', 7],
      queryFn: () => api('service/7/mail/list/'),
      retry: false,
    });
    stubApi(() => envelope(null, { status: 404 }));
    await queryClient.prefetchQuery({ queryKey: ['dns', 8], queryFn: () => api('service/8/dns/list/') });
    expect(calls.map((call) => call.path)).toEqual(['service/7/mail/list/']);
  });
});
