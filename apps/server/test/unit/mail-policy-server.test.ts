import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openSocketToFolder, removeStaleSocket } from '../../src/drivers/mail-policy/policy-socket-file.ts';
import type { PolicyRequest } from '../../src/modules/mail-sending/policy-protocol.ts';
import {
  type PolicyServer,
  type PolicyServerLimits,
  startPolicyServer,
  UNAVAILABLE_ACTION,
} from '../../src/modules/mail-sending/policy-server.ts';
import { connectPolicyClient } from '../support/policy-client.ts';

const silent = pino({ level: 'silent' });
let server: PolicyServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(decide: (request: PolicyRequest) => Promise<string>, limits: Partial<PolicyServerLimits> = {}) {
  server = await startPolicyServer({ listen: { host: '127.0.0.1', port: 0 }, decide, log: silent, limits });
  return (server.address as { port: number }).port;
}

describe('the policy server', () => {
  it('listens on the address asked for only, and answers each request of a connection in order', async () => {
    let calls = 0;
    const port = await serve(async (request) => {
      calls += 1;
      // the first answer takes longer than the second: the order must still hold
      if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 20));
      return `450 4.7.1 for ${request.get('sasl_username')}`;
    });
    expect(server?.address).toMatchObject({ host: '127.0.0.1' });
    const client = await connectPolicyClient(port);
    client.write('request=smtpd_access_policy\nsasl_username=one@x.test\n\nrequest=smtpd_access_policy\n');
    client.write('sasl_username=two@x.test\n\n');
    expect(await client.reply()).toBe('action=450 4.7.1 for one@x.test');
    expect(await client.reply()).toBe('action=450 4.7.1 for two@x.test');
    expect(await client.ask({ request: 'smtpd_access_policy', sasl_username: 'three@x.test' })).toBe(
      '450 4.7.1 for three@x.test',
    );
    await client.close();
  });

  it('defers the message when the decision fails, and keeps the connection', async () => {
    const port = await serve(async () => {
      throw new Error('database down');
    });
    const client = await connectPolicyClient(port);
    expect(await client.ask({ request: 'smtpd_access_policy' })).toBe(UNAVAILABLE_ACTION);
    expect(await client.ask({ request: 'smtpd_access_policy' })).toBe(UNAVAILABLE_ACTION);
    await client.close();
  });

  it('closes a connection that sends something other than the protocol, or an endless line', async () => {
    const port = await serve(async () => 'DUNNO', { maxLineBytes: 128 });
    const garbage = await connectPolicyClient(port);
    garbage.write('GET / HTTP/1.1\n');
    await garbage.closed;
    const endless = await connectPolicyClient(port);
    endless.write('sender='.padEnd(200, 'x'));
    await endless.closed;
  });

  it('closes a connection whose request does not end in time, or that stays idle', async () => {
    const port = await serve(async () => 'DUNNO', { requestSeconds: 0.05, idleSeconds: 0.05 });
    const slow = await connectPolicyClient(port);
    slow.write('request=smtpd_access_policy\n');
    await slow.closed;
    // a byte now and then does not keep a request alive
    const trickle = await connectPolicyClient(port);
    const drip = setInterval(() => trickle.write('x'), 10);
    trickle.write('sender=');
    await trickle.closed;
    clearInterval(drip);
    const idle = await connectPolicyClient(port);
    await idle.closed;
  });

  it('takes no more connections than its limit', async () => {
    const port = await serve(async () => 'DUNNO', { maxConnections: 1 });
    const first = await connectPolicyClient(port);
    expect(await first.ask({ request: 'smtpd_access_policy' })).toBe('DUNNO');
    const second = await connectPolicyClient(port);
    await second.closed;
    expect(await first.ask({ request: 'smtpd_access_policy' })).toBe('DUNNO');
    await first.close();
  });

  it('closes its connections when it stops', async () => {
    const port = await serve(async () => 'DUNNO');
    const client = await connectPolicyClient(port);
    await server?.close();
    server = undefined;
    await client.closed;
  });

  it('listens on a Unix socket, open to whoever reaches its folder, and replaces a stale one only', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-policy-'));
    const socketPath = path.join(folder, 'policy');
    // what a process killed while listening leaves: the socket file, nobody behind it
    execFileSync('python3', ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', socketPath]);
    expect(statSync(socketPath).isSocket()).toBe(true);
    const listen = { path: socketPath };
    await removeStaleSocket(socketPath);
    server = await startPolicyServer({ listen, decide: async () => 'DUNNO', log: silent });
    openSocketToFolder(socketPath);
    expect(statSync(socketPath).mode & 0o777).toBe(0o666);
    const client = await connectPolicyClient({ path: socketPath });
    expect(await client.ask({ request: 'smtpd_access_policy' })).toBe('DUNNO');
    // a socket someone listens on is theirs
    await expect(removeStaleSocket(socketPath)).rejects.toThrow(/another process listens/);
    expect(await client.ask({ request: 'smtpd_access_policy' })).toBe('DUNNO');
    await server.close();
    server = undefined;
    expect(existsSync(socketPath)).toBe(false);

    const notASocket = path.join(folder, 'file');
    writeFileSync(notASocket, 'keep me');
    await expect(removeStaleSocket(notASocket)).rejects.toThrow(/not a socket/);
    expect(existsSync(notASocket)).toBe(true);
  });
});
