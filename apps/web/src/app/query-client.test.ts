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
