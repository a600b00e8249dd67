import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';

/** A stand-in for PowerDNS's API that answers PATCHes from a script, one answer per request. */
async function scriptedApi(
  answers: { status: number; body: string }[],
): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((request, response) => {
    request.resume();
    const answer = answers[Math.min(calls, answers.length - 1)] as { status: number; body: string };
    calls += 1;
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls };
}

const LOCKED = { status: 500, body: '{"error":"GSQLBackend unable to replace RRSet: database is locked (5)"}' };
const rrsets = [{ name: 'www.example.test.', type: 'A', ttl: 3600, contents: ['192.0.2.1'] }];

describe('PowerDNS driver: transient refusals', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const driverFor = (url: string) =>
    new PowerDnsDriver({ apiUrl: url, apiKey: 'k', serverId: 'localhost', retryDelaysMs: [1, 1, 1] });

  it('retries "database is locked" and succeeds when it clears', async () => {
    const api = await scriptedApi([LOCKED, LOCKED, { status: 204, body: '' }]);
    server = api.server;
    await driverFor(api.url).replaceRRsets('example.test', rrsets);
    expect(api.calls()).toBe(3);
  });

  it('says "busy" when the lock stays, after a bounded number of tries', async () => {
    const api = await scriptedApi([LOCKED]);
    server = api.server;
    await expect(driverFor(api.url).replaceRRsets('example.test', rrsets)).rejects.toMatchObject({
      messageKey: 'dns.error.server_busy',
    });
    expect(api.calls()).toBe(4);
  });

  it('retries a bare server error of a PATCH (complete RRsets: sending it again is harmless), then says "failed"', async () => {
    const api = await scriptedApi([{ status: 500, body: 'Internal Server Error' }]);
    server = api.server;
    await expect(driverFor(api.url).replaceRRsets('example.test', rrsets)).rejects.toMatchObject({
      messageKey: 'dns.error.server_failed',
    });
    expect(api.calls()).toBe(4);
  });

  it('does not retry a POST that failed for another reason (a second key would be made)', async () => {
    const api = await scriptedApi([
      { status: 200, body: '[]' },
      { status: 500, body: '{"error":"something else"}' },
    ]);
    server = api.server;
    await expect(driverFor(api.url).dsRecords('example.test')).rejects.toMatchObject({
      messageKey: 'dns.error.server_failed',
    });
    expect(api.calls()).toBe(2);
  });
});
