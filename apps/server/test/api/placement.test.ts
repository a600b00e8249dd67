import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import type { JobEngine } from '../../src/jobs/job-engine.ts';
import { APPLY_WEB } from '../../src/modules/hosting/web-apply.jobs.ts';
import type { NodeView } from '../../src/modules/nodes/nodes.service.ts';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase } from '../support/test-database.ts';

const ACCOUNT = 'placing.test';

/**
 * A new service's parts go to the provider's servers by the documented policy (least used among
 * the active servers of the role with room, by name on a tie; or the provider's pin), and each
 * service's work goes to the queue of the server holding it, which only that server's agent takes.
 */
// Servers need PostgreSQL (panel node add refuses them on SQLite: nodes-cli.test.ts).
describe.each(['postgres'] as const)('placing services on the provider’s servers on %s', (kind) => {
  let dataDir: string;
  let t: TestApp;
  let env: Record<string, string>;
  const engines: JobEngine[] = [];
  const ids = new Map<string, number>();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-placement-'));
    const database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    t = await buildTestApp(kind, { database });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_LOG_LEVEL: 'silent',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
    await buildAccount(database.db, { domainName: ACCOUNT, resources: { [ACCOUNT]: { hasDomain: true } } });
  });
  afterAll(async () => {
    for (const engine of engines) await engine.stop();
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runPanel(env, args);
  const addService = async (reference: string, ...more: string[]) => {
    const added = await cli(
      'resource',
      'add',
      '--domain',
      ACCOUNT,
      '--reference',
      reference,
      '--service',
      '--mail',
      '--grant-user',
      'admin',
      ...more,
      '--json',
    );
    if (added.code === 0) {
      const answer = JSON.parse(added.stdout) as { id: number; placement: Record<string, string> };
      ids.set(reference, answer.id);
      return { ...added, placement: answer.placement };
    }
    return { ...added, placement: undefined };
  };
  const addresses: Record<string, string[]> = {
    'web-a': ['--ipv4', '198.51.100.11', '--ipv6', '2001:db8::11'],
    'web-b': ['--ipv4', '198.51.100.12'],
    'store-a': ['--ipv4', '198.51.100.21'],
  };
  const addNode = (name: string, roles: string, capacity: number) =>
    cli(
      'node',
      'add',
      name,
      '--roles',
      roles,
      '--capacity',
      String(capacity),
      '--host',
      `${name}.example.net`,
      '--url',
      'http://10.0.0.9:8247',
      ...(addresses[name] ?? []),
    );
  const listed = async () => (JSON.parse((await cli('node', 'list', '--json')).stdout) as { nodes: NodeView[] }).nodes;

  it('places nothing while no server is added: the panel is its own machine’s server', async () => {
    const added = await addService('sola.test');
    expect(added).toMatchObject({ code: 0, placement: {} });
    expect(await t.database.db.selectFrom('service_placements').selectAll().execute()).toEqual([]);
  });

  it('puts each part on the least used active server of its role with room, by name on a tie', async () => {
    expect((await addNode('web-a', 'web', 2)).code).toBe(0);
    expect((await addNode('web-b', 'web', 1)).code).toBe(0);
    expect((await addNode('store-a', 'mail,databases', 10)).code).toBe(0);
    expect((await addService('uno.test')).placement).toEqual({ web: 'web-a', mail: 'store-a', databases: 'store-a' });
    expect((await addService('dos.test')).placement).toEqual({ web: 'web-b', mail: 'store-a', databases: 'store-a' });
    expect((await addService('tres.test')).placement).toEqual({ web: 'web-a', mail: 'store-a', databases: 'store-a' });
    // every web server is full now: refused, with the role named
    const refused = await addService('cuatro.test');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No active server with the web role has room for another service');
    expect(
      await t.database.db.selectFrom('resources').select('id').where('reference', '=', 'cuatro.test').execute(),
    ).toEqual([]);
    // a repeated add keeps what was chosen; the service made before servers keeps the unnamed machine
    expect((await addService('uno.test')).placement).toEqual({ web: 'web-a', mail: 'store-a', databases: 'store-a' });
    expect((await addService('sola.test')).placement).toEqual({});
  });

  it('takes the provider’s pin, but never to a server without the role or one that is draining', async () => {
    expect((await addService('cinco.test', '--node', 'web=store-a')).stderr).toContain(
      'There is no server store-a with the web role',
    );
    expect((await cli('node', 'drain', 'web-b')).code).toBe(0);
    expect((await addService('cinco.test', '--node', 'web=web-b')).stderr).toContain(
      'Server web-b is draining and takes no new services',
    );
    expect((await cli('node', 'undrain', 'web-b')).code).toBe(0);
    for (const bad of ['web', 'ftp=web-a', 'web=Web_A', 'web=web-a,web=web-b'])
      expect((await addService('cinco.test', '--node', bad)).stderr).toMatch(/--node|not a server name/);
    // a pin is the provider's word: it may put a server over its capacity
    expect((await addService('cinco.test', '--node', 'web=web-b')).placement).toMatchObject({ web: 'web-b' });
  });

  it('counts each server’s services and refuses to remove one that still holds some', async () => {
    const nodes = await listed();
    expect(nodes.map((node) => [node.name, node.services])).toEqual([
      ['store-a', 4],
      ['web-a', 2],
      ['web-b', 2],
    ]);
    expect((await cli('node', 'list')).stdout).toMatch(/web-a\s+web\s+2\/2/);
    const refused = await cli('node', 'remove', 'web-a');
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toContain('Server web-a still holds services: move them before removing it');
  });

  it('points the zone’s own records at the servers holding the service, and its customers there too', async () => {
    const cookie = await t.login(ACCOUNT, 'admin', 'correct horse battery');
    const records = async (reference: string) => {
      const listed = await t.call<{ dnss: { zona: string; type: string; value: string }[] }>(
        'GET',
        `service/${ids.get(reference)}/dns/list/`,
        {},
        { cookie },
      );
      return listed.body.data.dnss
        .filter((record) => ['A', 'AAAA'].includes(record.type))
        .map((record) => `${record.zona || '@'} ${record.type} ${record.value}`)
        .sort();
    };
    // uno: web on web-a (with IPv6), mail on store-a
    expect(await records('uno.test')).toEqual(expect.arrayContaining(['@ A 198.51.100.11', '@ AAAA 2001:db8::11']));
    expect((await records('uno.test')).filter((line) => line.startsWith('mail '))).toEqual(['mail A 198.51.100.21']);
    // dos: web on web-b, which has no IPv6: no AAAA that would lead to another machine
    expect((await records('dos.test')).filter((line) => line.startsWith('@ '))).toEqual(['@ A 198.51.100.12']);
    // sola, on the unnamed machine, keeps the provider's settings
    expect((await records('sola.test')).filter((line) => line.startsWith('@ '))).toEqual([
      `@ A ${t.config.dns.webIpv4}`,
      `@ AAAA ${t.config.dns.webIpv6}`,
    ]);

    const connection = await t.call<{ ssl: Record<string, string>; plain: Record<string, string> }>(
      'GET',
      `service/${ids.get('dos.test')}/correo/connection/`,
      {},
      { cookie },
    );
    expect(connection.body.data.ssl).toEqual({
      imap: 'store-a.example.net',
      smtp: 'store-a.example.net',
      ftp: 'web-b.example.net',
      bbdd: 'store-a.example.net',
    });
    expect(connection.body.data.plain.ftp).toBe('ftp.dos.test');
    const ftp = await t.call<{ ftp: { sslHost: string } }>(
      'GET',
      `service/${ids.get('dos.test')}/ftp/main/`,
      {},
      { cookie },
    );
    expect(ftp.body.data.ftp.sslHost).toBe('web-b.example.net');
  });

  it('shows each server’s daemons only the mail and FTP logins of the services it holds', async () => {
    const db = t.database.db;
    const uno = ids.get('uno.test') as number;
    const sola = ids.get('sola.test') as number;
    for (const [serviceId, localPart] of [
      [uno, 'ana'],
      [sola, 'bea'],
    ] as const) {
      await db
        .insertInto('mailboxes')
        .values({
          service_id: serviceId,
          local_part: localPart,
          password_hash: 'x',
          quota_bytes: 1,
          created_at: 0,
          sort_key: `${localPart}@${serviceId}`,
        })
        .execute();
      await db
        .insertInto('ftp_accounts')
        .values({
          service_id: serviceId,
          login: `${localPart}ftp`,
          folder: '',
          password_hash: 'x',
          password_sealed: 'x',
          home: `/srv/${localPart}`,
          created_at: 0,
        })
        .execute();
    }
    const rows = async (view: string, column: string) =>
      (
        await sql<{
          value: string;
          node: string;
        }>`SELECT ${sql.ref(column)} AS value, node FROM ${sql.table(view)}`.execute(db)
      ).rows
        .filter((row) => /^(ana|bea)|^(uno|sola)\.test$/.test(row.value))
        .map((row) => `${row.value} ${row.node || '(unnamed)'}`)
        .sort();
    // uno's mail is on store-a, its home on web-a; sola is wholly on the unnamed machine
    expect(await rows('mail_users_view', 'email')).toEqual(['ana@uno.test store-a', 'bea@sola.test (unnamed)']);
    expect(await rows('mail_domains_view', 'domain')).toEqual(['sola.test (unnamed)', 'uno.test store-a']);
    expect(await rows('mail_senders_view', 'sender')).toEqual(['ana@uno.test store-a', 'bea@sola.test (unnamed)']);
    expect(await rows('ftp_users_view', 'userid')).toEqual(['anaftp web-a', 'beaftp (unnamed)']);

    // in a move's final copy, the moving part is served by no server; an abandoned move hides nothing
    const nodeIn = async (view: string, column: string, value: string) =>
      (
        await sql<{
          node: string | null;
        }>`SELECT node FROM ${sql.table(view)} WHERE ${sql.ref(column)} = ${value}`.execute(db)
      ).rows[0]?.node;
    const realNow = Math.floor(Date.now() / 1000);
    const moving = (role: 'mail' | 'web', startedAt: number) =>
      db
        .insertInto('service_moves')
        .values({
          service_id: uno,
          role,
          from_node: 'store-a',
          to_node: 'store-b',
          state: 'cutover',
          started_at: startedAt,
        })
        .execute();
    await moving('mail', realNow);
    expect(await nodeIn('mail_users_view', 'email', 'ana@uno.test')).toBeNull();
    expect(await nodeIn('mail_domains_view', 'domain', 'uno.test')).toBeNull();
    expect(await nodeIn('ftp_users_view', 'userid', 'anaftp')).toBe('web-a');
    await db.deleteFrom('service_moves').execute();
    await moving('web', realNow);
    expect(await nodeIn('ftp_users_view', 'userid', 'anaftp')).toBeNull();
    expect(await nodeIn('mail_users_view', 'email', 'ana@uno.test')).toBe('store-a');
    await db.deleteFrom('service_moves').execute();
    await moving('mail', realNow - 901);
    expect(await nodeIn('mail_users_view', 'email', 'ana@uno.test')).toBe('store-a');
    await db.deleteFrom('service_moves').execute();
  });

  it('holds a service’s web changes during a move’s final copy, and not after an abandoned one', async () => {
    const cookie = await t.login(ACCOUNT, 'admin', 'correct horse battery');
    const sola = ids.get('sola.test') as number;
    const db = t.database.db;
    const createSite = (label: string) =>
      t.call('POST', `service/${sola}/subdomain/create/`, { subDomain: label, folder: label }, { cookie });
    const now = Math.floor(t.clock.now() / 1000);
    await db
      .insertInto('service_moves')
      .values({ service_id: sola, role: 'web', from_node: '', to_node: 'web-a', state: 'cutover', started_at: now })
      .execute();
    const held = await createSite('retenido');
    expect(held.body.system.statusCode).toBe(409);
    expect(held.body.system.errors).toEqual([
      'Este servicio se está moviendo a otro servidor: inténtalo de nuevo en un minuto',
    ]);
    // the process moving it died a quarter of an hour ago: the service is its own again
    t.clock.advance(901);
    const free = await createSite('libre');
    expect(free.body.system.errors).toEqual([]);
    await db.deleteFrom('service_moves').execute();
  });

  it('sends each service’s work to its server’s queue, which only that server’s agent takes', async () => {
    const named = (node: string) => createJobEngine({ ...t.database, node });
    const onA = named('web-a');
    const onB = named('web-b');
    engines.push(onA, onB);
    const taken: string[] = [];
    for (const [engine, node] of [
      [onA, 'web-a'],
      [onB, 'web-b'],
    ] as const) {
      await engine.start({ workers: true });
      await engine.work(APPLY_WEB, async (service) => void taken.push(`${service.domain} on ${node}`));
    }
    // the panel's sender, as an instance has it (the unnamed machine takes nothing here)
    const sender = createJobEngine(t.database);
    engines.push(sender);
    await sender.start({ workers: false });
    for (const reference of ['uno.test', 'dos.test', 'tres.test'])
      await sender.send(APPLY_WEB, { serviceId: ids.get(reference) as number, domain: reference });
    await eventually(() => taken.length === 3);
    expect(taken.sort()).toEqual(['dos.test on web-b', 'tres.test on web-a', 'uno.test on web-a']);
    // a job is marked completed only after its handler has returned, so the last one may still be
    // active when the third handler has run: wait for the engine's record, not the handler's
    const completedQueues = async () =>
      (await sender.list({ states: ['completed'], limit: 20 }))
        .map((job) => job.kind)
        .filter((kind) => kind.startsWith('web.apply-service/'));
    await eventually(async () => (await completedQueues()).length === 3);
    const queues = await completedQueues();
    expect(queues.sort()).toEqual(['web.apply-service/web-a', 'web.apply-service/web-a', 'web.apply-service/web-b']);
    // a service on no named server stays on the plain queue, the unnamed machine's
    const db = t.database.db;
    await db
      .deleteFrom('service_placements')
      .where('service_id', '=', ids.get('uno.test') as number)
      .execute();
    await sender.send(APPLY_WEB, { serviceId: ids.get('uno.test') as number, domain: 'uno.test' });
    // (the test app, the unnamed machine's process, may have taken it already)
    const plain = await sender.list({
      states: ['created', 'active', 'retry', 'completed', 'failed'],
      kind: 'web.apply-service',
      limit: 10,
    });
    expect(plain.map((job) => job.payload)).toContainEqual({ serviceId: ids.get('uno.test'), domain: 'uno.test' });
  });
});
