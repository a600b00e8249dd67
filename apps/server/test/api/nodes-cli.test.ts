import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import { createLogger } from '../../src/logger.ts';
import type { NodeView } from '../../src/modules/nodes/nodes.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { startNodeAgent } from '../../src/node-agent.ts';
import { runPanel } from '../support/panel-cli.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase } from '../support/test-database.ts';

const ADD = [
  '--roles',
  'web,mail',
  '--capacity',
  '500',
  '--host',
  'web1.example.net',
  '--url',
  'http://10.0.0.2:8247',
  '--ipv4',
  '198.51.100.20',
];

/**
 * The provider's servers as data: `panel node add|list|drain|undrain|remove`, each agent proving
 * which server it is with the key shown once, and doctor saying which server is down.
 */
describe('panel node on SQLite', () => {
  it('refuses a server: its agent could not share the embedded work log', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-nodes-cli-'));
    try {
      await (await createTestDatabase('sqlite', { sqliteFile: path.join(dataDir, 'panel.sqlite') })).destroy();
      const refused = await runPanel({ PANEL_DATA_DIR: dataDir, PANEL_LOG_LEVEL: 'silent' }, [
        'node',
        'add',
        'web1',
        ...ADD,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Servers need the panel on PostgreSQL');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(['postgres'] as const)('panel node on %s', (kind) => {
  let dataDir: string;
  let t: TestApp;
  let env: Record<string, string>;
  let key: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-nodes-cli-'));
    const database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    t = await buildTestApp(kind, { database });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runPanel(env, args);
  const listed = async () => (JSON.parse((await cli('node', 'list', '--json')).stdout) as { nodes: NodeView[] }).nodes;
  const doctorServers = async () =>
    (
      JSON.parse((await cli('doctor', '--json')).stdout) as { checks: { name: string; ok: boolean; detail: string }[] }
    ).checks.find((check) => check.name === 'servers');
  const agentAs = (node: string, nodeKey: string) =>
    startNodeAgent({
      config: { ...t.config, agent: { ...t.config.agent, node, nodeKey } },
      db: t.database.db,
      events: new LocalEventBus(),
      dnsDriver: createDnsDriver(t.config),
      jobs: createJobEngine(t.database),
      secretKey: TEST_SECRET_KEY,
      log: createLogger('silent'),
    });

  it('starts with no servers: the panel is its own machine’s', async () => {
    const none = await cli('node', 'list');
    expect(none).toMatchObject({ code: 0 });
    expect(none.stdout).toContain('No servers added');
    expect(await doctorServers()).toMatchObject({ ok: true });
  });

  it('adds a server and shows its agent’s key once, keeping only its hash', async () => {
    const added = await cli('node', 'add', 'web1', ...ADD, '--json');
    expect(added.code).toBe(0);
    const answer = JSON.parse(added.stdout) as { node: NodeView; key: string };
    key = answer.key;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.node).toMatchObject({
      name: 'web1',
      roles: ['web', 'mail'],
      capacity: 500,
      ipv4: '198.51.100.20',
      ipv6: '',
      state: 'active',
      up: false,
    });
    const row = await t.database.db.selectFrom('nodes').selectAll().executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(await listed())).not.toContain(key);
    const again = await cli('node', 'add', 'web1', ...ADD);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('There is already a server of that name');
  });

  it('refuses a bad name, role, capacity, host or channel before anything is stored', async () => {
    const bad: [string[], string][] = [
      [['node', 'add', 'Web_1', ...ADD], 'is not a server name'],
      [['node', 'add', 'web2', ...ADD.map((arg) => (arg === 'web,mail' ? 'web,ftp' : arg))], '--roles'],
      [['node', 'add', 'web2', ...ADD.map((arg) => (arg === '500' ? '0' : arg))], 'capacity'],
      [['node', 'add', 'web2', ...ADD.map((arg) => (arg === 'web1.example.net' ? 'bad host' : arg))], '--host'],
      [['node', 'add', 'web2', ...ADD.map((arg) => (arg.startsWith('http') ? 'https://10.0.0.2:8247' : arg))], '--url'],
      [['node', 'add', 'web2', ...ADD.map((arg) => (arg === '198.51.100.20' ? '198.51.100.256' : arg))], '--ipv4'],
      [['node', 'add', 'web2', ...ADD.slice(0, -2)], '--ipv4 is needed'],
      [['node', 'add', 'web2', ...ADD, '--ipv6', '2001:db8::g'], '--ipv6'],
    ];
    for (const [args, message] of bad) {
      const refused = await cli(...args);
      expect({ args, code: refused.code }).toEqual({ args, code: 1 });
      expect(refused.stderr).toContain(message);
    }
    expect((await listed()).map((node) => node.name)).toEqual(['web1']);
  });

  it('says a server is down until its agent, with its key, is heard from', async () => {
    expect((await cli('node', 'list')).code).toBe(1);
    expect((await cli('node', 'list')).stdout).toContain('never');
    expect(await doctorServers()).toMatchObject({ ok: false, detail: '1 of 1 down: web1' });

    await expect(agentAs('web1', 'a'.repeat(43))).rejects.toThrow('no server web1 with this key');
    await expect(agentAs('web9', key)).rejects.toThrow('no server web9 with this key');
    const agent = await agentAs('web1', key);
    try {
      expect((await listed())[0]).toMatchObject({ name: 'web1', up: true });
      expect((await cli('node', 'list')).code).toBe(0);
      expect(await doctorServers()).toMatchObject({ ok: true });
    } finally {
      await agent.stop();
    }
  });

  it('drains a server, lets it take services again, and removes it: its agent is refused from then on', async () => {
    expect((await cli('node', 'drain', 'web1')).code).toBe(0);
    expect((await listed())[0]?.state).toBe('draining');
    expect((await cli('node', 'undrain', 'web1')).code).toBe(0);
    expect((await listed())[0]?.state).toBe('active');
    expect((await cli('node', 'drain', 'nada')).code).toBe(1);
    expect((await cli('node', 'remove', 'web1')).code).toBe(0);
    expect(await listed()).toEqual([]);
    await expect(agentAs('web1', key)).rejects.toThrow('no server web1 with this key');
  });
});
