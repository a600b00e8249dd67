import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/daemons/daemon-harness.ts';
import type { NodeParts } from '../../src/composition/node-parts.ts';
import { ConfinedWorkers } from '../../src/drivers/files/confined/confined-workers.ts';
import { ServiceFiles } from '../../src/drivers/files/service-files.ts';
import { DaemonError, FieldErrors, NotFoundError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { NodeChannel } from '../../src/node-channel/channel-client.ts';
import { type NodeChannelServer, startNodeChannel } from '../../src/node-channel/channel-server.ts';
import { nodeChannelToken } from '../../src/node-channel/channel-token.ts';
import { RemoteFileWorkers } from '../../src/node-channel/remote-file-workers.ts';

const SECRET = Buffer.alloc(32, 7);
const DOMAIN = 'canal.test';

/**
 * The node channel end to end on loopback: a panel instance's remote file workers and reads
 * against the agent's server, which runs each operation in a real confined worker in its own
 * hosting root. The instance's own root is another folder, which must stay untouched.
 */
describe('the node channel', () => {
  let server: NodeChannelServer;
  let url: URL;
  let nodeRoot: string;
  let instanceRoot: string;
  let files: ServiceFiles;
  let channel: NodeChannel;
  const workers = new ConfinedWorkers({ timeoutMs: 20_000 });
  const dumps: string[] = [];

  /** The parts the reads run on: only what these tests read. */
  const node = {
    databases: {
      driver: {
        usage: async (names: string[]) => new Map(names.map((name) => [name, name.length * 1000])),
        dump: async (name: string) => {
          dumps.push(name);
          if (name === 'missing_1') throw new DaemonError('ddbb.error.dump', 'no such database');
          return Readable.from([`-- dump of ${name}\n`]);
        },
      },
    },
    mail: {
      driver: {
        usage: async () => 4096,
        foreignFilter: async () => null,
        spamMarked: async (boxes: { domain: string; localPart: string }[], days: number) =>
          boxes.map((box) => ({
            localPart: box.localPart,
            folder: 'Junk',
            received: days,
            from: '',
            subject: '',
            score: '15.00',
          })),
      },
    },
    web: { driver: { errorLog: async () => [] } },
  } as unknown as NodeParts;

  beforeAll(async () => {
    nodeRoot = mkdtempSync(path.join(tmpdir(), 'p247-channel-node-'));
    instanceRoot = mkdtempSync(path.join(tmpdir(), 'p247-channel-instance-'));
    const port = await freePort();
    server = await startNodeChannel({
      listen: { host: '127.0.0.1', port },
      token: nodeChannelToken(SECRET),
      workers,
      homes: {
        root: nodeRoot,
        hosted: async (domain) => domain === DOMAIN,
        ensure: async (domain) => void mkdirSync(path.join(nodeRoot, domain), { recursive: true }),
        ownerOf: async () => undefined,
      },
      node,
      log: createLogger('silent'),
    });
    url = new URL(`http://127.0.0.1:${port}`);
    channel = new NodeChannel(url, nodeChannelToken(SECRET));
    files = new ServiceFiles(
      new RemoteFileWorkers(channel, instanceRoot),
      mkdtempSync(path.join(tmpdir(), 'p247-channel-uploads-')),
    );
  });
  afterAll(async () => {
    channel.close();
    await server.close();
    await workers.close();
  });

  const place = {
    get home() {
      return path.join(instanceRoot, DOMAIN);
    },
    folder: '',
  };

  it('runs file operations in the node’s home (made on first use), never in the instance’s root', async () => {
    expect(await files.list(place, '')).toEqual([]);
    await files.createFolder(place, '', 'web');
    await files.save(place, 'web/index.html', '<h1>hola</h1>');
    expect(readFileSync(path.join(nodeRoot, DOMAIN, 'web', 'index.html'), 'utf8')).toBe('<h1>hola</h1>');
    expect((await files.list(place, 'web')).map((entry) => entry.name)).toEqual(['index.html']);
    expect(await files.read(place, 'web/index.html')).toBe('<h1>hola</h1>');
    expect(await files.usage(place)).toBeGreaterThan(0);
    expect(readdirSync(instanceRoot)).toEqual([]);
  });

  it('streams bytes both ways: an upload’s input and a download', async () => {
    const content = Buffer.alloc(300_000, 'x');
    const target = { key: 'a'.repeat(64), folder: '', name: 'big.bin', size: content.length };
    expect(await files.uploadChunk(place, target, 0, Readable.from([content]))).toBe(content.length);
    expect(readFileSync(path.join(nodeRoot, DOMAIN, 'big.bin'))).toEqual(content);
    const download = await files.download(place, 'big.bin');
    expect(download.size).toBe(content.length);
    expect((await text(download.stream)).length).toBe(content.length);
  });

  it('brings the node’s refusals back as the errors they were', async () => {
    await expect(files.read(place, 'nothing.txt')).rejects.toBeInstanceOf(NotFoundError);
    writeFileSync(path.join(nodeRoot, DOMAIN, 'taken'), '');
    await expect(files.createFolder(place, '', 'taken')).rejects.toBeInstanceOf(FieldErrors);
    const stranger = { home: path.join(instanceRoot, 'ajeno.test'), folder: '' };
    await expect(files.list(stranger, '')).rejects.toBeInstanceOf(NotFoundError);
    expect(readdirSync(nodeRoot)).toEqual([DOMAIN]);
  });

  it('survives an upload the node refuses before reading it', async () => {
    const remote = new RemoteFileWorkers(channel, instanceRoot);
    const stranger = path.join(instanceRoot, 'ajeno.test');
    const big = Buffer.alloc(8 * 1024 * 1024, 'z');
    await expect(
      remote.call({ op: 'write', base: stranger, folder: [], args: { path: 'x.bin', size: big.length } }, () =>
        Readable.from([big]),
      ),
    ).rejects.toThrow();
    // the channel still works afterwards
    expect(await files.list(place, 'web')).toHaveLength(1);
  });

  it('answers the named reads, and a read stream’s refusal before its bytes', async () => {
    expect(await channel.read('databases.usage', [['tienda_1', 'blog_22']])).toEqual([
      ['tienda_1', 8000],
      ['blog_22', 7000],
    ]);
    expect(await channel.read('mail.usage', [{ domain: DOMAIN, localPart: 'info' }])).toBe(4096);
    expect(await channel.read('mail.spamMarked', [[{ domain: DOMAIN, localPart: 'info' }], 7])).toEqual([
      { localPart: 'info', folder: 'Junk', received: 7, from: '', subject: '', score: '15.00' },
    ]);
    expect(await text(await channel.readStream('databases.dump', ['tienda_1']))).toBe('-- dump of tienda_1\n');
    const refused = await channel.readStream('databases.dump', ['missing_1']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DaemonError);
    expect((refused as DaemonError).messageKey).toBe('ddbb.error.dump');
  });

  it('checks every argument on the node: a bad database name or mailbox never reaches a driver', async () => {
    dumps.length = 0;
    await expect(channel.readStream('databases.dump', ['../etc'])).rejects.toThrow(/answered 400/);
    await expect(channel.read('mail.usage', [{ domain: DOMAIN, localPart: 'a b' }])).rejects.toThrow(/answered 400/);
    await expect(channel.read('mail.spamMarked', [[{ domain: DOMAIN, localPart: 'info' }], 0])).rejects.toThrow(
      /answered 400/,
    );
    expect(dumps).toEqual([]);
  });

  /** A raw call, as someone on the network without the panel's code could send it. */
  const raw = (call: string, body: unknown, token = nodeChannelToken(SECRET)) =>
    new Promise<number>((resolve, reject) => {
      const sent = request(new URL(`/p247-node/v1/${call}`, url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      sent.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      sent.on('error', reject);
      sent.end(JSON.stringify(body));
    });

  it('refuses a call without the token, and operations that are the node’s own work', async () => {
    const list = { request: { op: 'list', domain: DOMAIN, folder: [], args: { path: '' } } };
    expect(await raw('files/call', list)).toBe(200);
    expect(await raw('files/call', list, nodeChannelToken(Buffer.alloc(32, 8)))).toBe(401);
    expect(await raw('files/call', list, '')).toBe(401);
    // (a move's `restore` of a whole home crosses; a backup's restore and an install do not)
    for (const op of ['install', 'prepare'])
      expect(await raw('files/call', { request: { ...list.request, op } })).toBe(400);
    // a home is named by its domain only: no path, no user
    expect(await raw('files/call', { request: { ...list.request, domain: '../etc' } })).toBe(400);
    expect(await raw('files/call', { request: { ...list.request, owner: { uid: 0, gid: 0 } } })).toBe(400);
    expect(await raw('reads/nothing', { args: [] })).toBe(404);
  });

  it('names a server that does not answer', async () => {
    const gone = new NodeChannel(new URL(`http://127.0.0.1:${await freePort()}`), nodeChannelToken(SECRET));
    const failure = await gone.read('mail.usage', [{ domain: DOMAIN, localPart: 'info' }]).catch((error) => error);
    expect(failure).toBeInstanceOf(DaemonError);
    expect((failure as DaemonError).messageKey).toBe('error.node_unreachable');
    gone.close();
  });
  it('shows a figure’s last known value while its server is down or frozen, without waiting on it', async () => {
    const remote = new RemoteFileWorkers(channel, instanceRoot);
    const usage = () => remote.call<{ bytes: number }>({ op: 'usage', base: place.home, folder: [], args: {} });
    const known = (await usage()).bytes;
    expect(known).toBeGreaterThan(0);
    // a server that takes the connection and never answers, as a stopped (SIGSTOP) agent does
    const frozen = createServer(() => undefined);
    const port = await freePort();
    await new Promise<void>((resolve) => frozen.listen(port, '127.0.0.1', resolve));
    const stuck = new NodeChannel(new URL(`http://127.0.0.1:${port}`), nodeChannelToken(SECRET));
    const started = Date.now();
    expect(await stuck.figure('home canal.test/', async () => 1)).toBe(1);
    expect(
      await stuck.figure('home canal.test/', (withinMs) =>
        stuck.result('files/call', {}, JSON.stringify({}), withinMs).then(() => 2),
      ),
    ).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await stuck.figure('never read', (withinMs) => stuck.result('x', {}, '', withinMs))).toBe(0);
    stuck.close();
    frozen.closeAllConnections();
    frozen.close();
  });
});

/**
 * An agent that takes a call on a kept connection and resets it without reading it, as one does
 * that closes an idle connection just as the next call leaves on it.
 */
describe('a kept connection the agent closes as a call leaves on it', () => {
  const answered = JSON.stringify({ result: 4096 });
  let calls = 0;
  const agent = createNetServer((socket) => {
    let served = false;
    socket.on('data', (bytes) => {
      calls += 1;
      if (served) return socket.resetAndDestroy();
      if (!bytes.includes('\r\n\r\n')) return;
      served = true;
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${answered.length}\r\nconnection: keep-alive\r\n\r\n${answered}`,
      );
    });
  });
  let channel: NodeChannel;
  beforeAll(async () => {
    const port = await freePort();
    await new Promise<void>((resolve) => agent.listen(port, '127.0.0.1', resolve));
    channel = new NodeChannel(new URL(`http://127.0.0.1:${port}`), nodeChannelToken(SECRET));
  });
  afterAll(() => {
    channel.close();
    agent.close();
  });

  it('sends a call again on a new connection, and never one with a streamed body', async () => {
    const mailbox: [{ domain: string; localPart: string }] = [{ domain: DOMAIN, localPart: 'info' }];
    expect(await channel.read('mail.usage', mailbox)).toBe(4096);
    calls = 0;
    expect(await channel.read('mail.usage', mailbox)).toBe(4096);
    expect(calls).toBe(2);
    const streamed = await channel
      .write('mail.restore' as never, {} as never, Readable.from(['bytes']))
      .catch((e) => e);
    expect((streamed as DaemonError).messageKey).toBe('error.node_unreachable');
  });
});
