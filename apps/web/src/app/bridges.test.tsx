import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSessionLost, expectSessionEnd, isSessionLost } from '../lib/session-lost';
import { onWorkChanged } from '../lib/work-events';
import { RealtimeBridge } from './bridges';

/** A WebSocket stand-in: the test plays the server's part. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close() {
    this.closed = true;
  }
  push(message: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }
}

beforeEach(() => {
  FakeSocket.opened = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  clearSessionLost();
  expectSessionEnd(false);
});
afterEach(() => vi.unstubAllGlobals());

/** A menu that lists what the permission list query answers (as the side menu does). */
function Menu({ answers }: { answers: () => string[] }) {
  const list = useQuery({ queryKey: ['permissions', 'list'], queryFn: async () => answers(), staleTime: Infinity });
  const config = useQuery({ queryKey: ['config', 'es'], queryFn: async () => 'config', staleTime: Infinity });
  return (
    <ul data-testid="menu" data-config={config.data}>
      {(list.data ?? []).map((entry) => (
        <li key={entry}>{entry}</li>
      ))}
    </ul>
  );
}

function renderBridge(answers: () => string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RealtimeBridge basePath="/p247/" />
      <Menu answers={answers} />
    </QueryClientProvider>,
  );
  return client;
}

describe('realtime bridge', () => {
  it('connects to the base path’s realtime socket', () => {
    renderBridge(() => []);
    expect(FakeSocket.opened).toHaveLength(1);
    expect(FakeSocket.opened[0]?.url).toBe(`ws://${location.host}/p247/realtime/`);
  });

  it('refreshes the permission queries (menus, lists) on permissions.changed, and nothing else', async () => {
    let entries = ['demo.test', 'mail-demo.test'];
    const permissionReads = vi.fn(() => entries);
    const client = renderBridge(permissionReads);
    await screen.findByText('mail-demo.test');
    const configReads = client.getQueryState(['config', 'es'])?.dataUpdateCount;

    entries = ['demo.test'];
    FakeSocket.opened[0]?.push({ type: 'permissions.changed', resourceId: 7 });
    await waitFor(() => expect(screen.queryByText('mail-demo.test')).toBeNull());
    expect(screen.getByText('demo.test')).toBeInTheDocument();
    expect(permissionReads).toHaveBeenCalledTimes(2);
    expect(client.getQueryState(['config', 'es'])?.dataUpdateCount).toBe(configReads);
    expect(isSessionLost()).toBe(false);
  });

  it('opens the session-loss modal on session.ended, unless this tab is ending it itself', async () => {
    renderBridge(() => []);
    const socket = FakeSocket.opened[0];
    expectSessionEnd(true);
    socket?.push({ type: 'session.ended' });
    expect(isSessionLost()).toBe(false);
    expectSessionEnd(false);
    socket?.push({ type: 'session.ended' });
    expect(isSessionLost()).toBe(true);
  });

  it('passes a resource’s work.changed on to the views that listen, and nothing that names no resource or no area of its', async () => {
    renderBridge(() => []);
    const heard: unknown[] = [];
    const off = onWorkChanged((change) => heard.push(change));
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'web', resourceId: 4 });
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'dns', resourceId: 7 });
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'web' });
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'mail', resourceId: 4 });
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'backups', resourceId: 4 });
    off();
    FakeSocket.opened[0]?.push({ type: 'work.changed', area: 'web', resourceId: 5 });
    expect(heard).toEqual([
      { area: 'web', resourceId: 4 },
      { area: 'dns', resourceId: 7 },
      { area: 'mail', resourceId: 4 },
    ]);
  });

  it('ignores what is not one of its messages', async () => {
    const permissionReads = vi.fn(() => ['demo.test']);
    renderBridge(permissionReads);
    await screen.findByText('demo.test');
    act(() => FakeSocket.opened[0]?.onmessage?.({ data: 'not json' }));
    FakeSocket.opened[0]?.push({ type: 'something.else' });
    expect(permissionReads).toHaveBeenCalledTimes(1);
  });
});
