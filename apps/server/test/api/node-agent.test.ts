import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BackupJob, BackupsListData } from '@panel247/contract/backups';
import type { FilesListData } from '@panel247/contract/files';
import type { ErrorLogLine, HostingService } from '@panel247/contract/hosting';
import type { Mailbox } from '@panel247/contract/mail';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import type { AppConfig } from '../../src/config.ts';
import { EmbeddedDatabasesDriver } from '../../src/drivers/databases/embedded.driver.ts';
import { createDnsDriver } from '../../src/drivers/dns/create-dns-driver.ts';
import { EmbeddedWebDriver } from '../../src/drivers/web/embedded.driver.ts';
import { FieldErrors } from '../../src/errors.ts';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import type { JobKind } from '../../src/jobs/job-kind.ts';
import { createLogger } from '../../src/logger.ts';
import { BACKUP_DAILY } from '../../src/modules/backups/backup-jobs.ts';
import { UNSIGN_ZONE_STEP } from '../../src/modules/domain/zone-dnssec.jobs.ts';
import { ORDER_SITE_CERTIFICATE } from '../../src/modules/hosting/certificate.jobs.ts';
import { INSTALL_APPLICATION } from '../../src/modules/installer/installer.jobs.ts';
import { GIVE_DKIM_KEYS } from '../../src/modules/mail/dkim-signing.jobs.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type NodeAgent, startNodeAgent } from '../../src/node-agent.ts';
import { NODE_SYNC } from '../../src/node-sync.ts';
import { buildAccount } from '../support/factories.ts';
import { connectPolicyClient, dataRequest } from '../support/policy-client.ts';
import { eventually } from '../support/retrying.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS } from '../support/test-database.ts';
import { serviceNginxConfig } from '../support/web-config.ts';

const DOMAIN = 'agente.test';
const BEING_APPLIED = 'Hecho en el panel. El servidor aún no lo ha aplicado: se aplicará en cuanto pueda.';

/**
 * The panel's instances with PANEL_AGENT=separate send the web, FTP, mail and database changes; a node agent of its own
 * (the same factories, no HTTP) applies them. Here both run in one process on one database, the
 * agent with its own work-log engine, as `npm run agent` would beside `npm start`.
 */
/** PostgreSQL only: an agent of its own needs the shared work log (the configuration says so). */
describe.each(DATABASE_KINDS.filter((kind) => kind === 'postgres'))('a node agent of its own on %s', (kind) => {
  let t: TestApp;
  let agent: NodeAgent | undefined;
  let cookie: string;
  let id: number;
  let webDir: string;
  let policySocket: string;
  /**
   * The node's own mail and log folders; the instance is given others, which must stay empty.
   * The hosting root is the same on both, as it must be: FTP accounts' homes are stored with it
   * (the namespace test gives the API a root of its own that stays empty).
   */
  let nodeConfig: AppConfig;
  const nodeHomes = mkdtempSync(path.join(tmpdir(), 'p247-agent-homes-'));
  const nodeMail = mkdtempSync(path.join(tmpdir(), 'p247-agent-mail-'));
  const nodeLogs = mkdtempSync(path.join(tmpdir(), 'p247-agent-logs-'));
  const events = new LocalEventBus();

  const startAgent = async () => {
    agent = await startNodeAgent({
      config: nodeConfig,
      db: t.database.db,
      events,
      dnsDriver: createDnsDriver(t.config),
      jobs: createJobEngine(t.database),
      secretKey: TEST_SECRET_KEY,
      log: createLogger('silent'),
    });
  };
  const stopAgent = async () => {
    await agent?.stop();
    agent = undefined;
  };
  const nginxConf = () => serviceNginxConfig(path.join(webDir, 'live', String(id)));
  const service = async () =>
    (await t.call<{ service: HostingService }>('GET', `service/${id}/`, {}, { cookie })).body.data.service;
  const createSite = (label: string) =>
    t.call('POST', `service/${id}/subdomain/create/`, { subDomain: label, folder: label }, { cookie });
  /** What the web driver was asked to check for this service (once per apply). */
  const applies = () => vi.spyOn(EmbeddedWebDriver.prototype as unknown as { check: () => Promise<void> }, 'check');

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'p247-agent-web-'));
    policySocket = path.join(mkdtempSync(path.join(tmpdir(), 'p247-agent-policy-')), 'policy.sock');
    const database = await createTestDatabase(kind);
    t = await buildTestApp(kind, {
      events,
      database,
      config: {
        databaseUrl: database.url,
        'agent.mode': 'separate',
        'agent.url': `http://127.0.0.1:${await freePort()}`,
        'web.applyWaitSeconds': 5,
        'hosting.root': nodeHomes,
        'mail.root': mkdtempSync(path.join(tmpdir(), 'p247-instance-mail-')),
        'web.logDir': mkdtempSync(path.join(tmpdir(), 'p247-instance-logs-')),
        'web.configDir': webDir,
        'mailSending.policyListen': policySocket,
      },
    });
    nodeConfig = {
      ...t.config,
      mail: { ...t.config.mail, root: nodeMail },
      web: { ...t.config.web, logDir: nodeLogs },
    };
    const account = await buildAccount(t.database.db, {
      domainName: DOMAIN,
      resources: { [DOMAIN]: { hasService: true, hasMail: true } },
    });
    id = account.resources[DOMAIN] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    await startAgent();
  });
  afterAll(async () => {
    await stopAgent();
    await t.close();
  });
  // A spy on a driver's prototype must not outlive a test that failed before restoring it: the
  // tier's files share their modules.
  afterEach(() => vi.restoreAllMocks());

  it('answers Postfix’s sending-limit policy from the node: the API’s instance listens on nothing', async () => {
    await t.app.ready();
    await stopAgent();
    expect(existsSync(policySocket)).toBe(false);
    await startAgent();
    const client = await connectPolicyClient({ path: policySocket });
    expect(await client.ask({ ...dataRequest(`buzon@${DOMAIN}`), sasl_username: '' })).toBe('DUNNO');
    await client.close();
  });

  it('applies a change made through the API: served when the call answers', async () => {
    const site = await createSite('now');
    expect(site.body.system.info).toEqual(['Subdominio creado']);
    expect(site.body.system.job).toBeNull();
    expect(nginxConf()).toContain('now.agente.test');
    expect((await service()).applying).toBeNull();
  });

  it('away, leaves the change pending (the API applies nothing); back, applies it once', async () => {
    await stopAgent();
    const checks = applies();
    const site = await createSite('later');
    expect(site.response.statusCode).toBe(200);
    expect(site.body.system.info).toEqual(['Subdominio creado', BEING_APPLIED]);
    expect(site.body.system.job).toMatchObject({ status: 'queued', progress: 0 });
    expect((await service()).applying).toMatchObject({ state: 'pending', reason: null });
    expect(nginxConf()).not.toContain('later.agente.test');
    expect(checks).not.toHaveBeenCalled();

    await startAgent();
    await eventually(async () => (await service()).applying === null);
    expect(nginxConf()).toContain('later.agente.test');
    expect(checks.mock.calls.filter((call) => ((call as unknown[])[0] as number[]).includes(id))).toHaveLength(1);
    checks.mockRestore();
  });

  it('a change the node refuses on a field goes, and the later one made on it goes with it', async () => {
    await stopAgent();
    const first = await createSite('uno');
    const second = await createSite('dos');
    expect([first.body.system.job?.status, second.body.system.job?.status]).toEqual(['queued', 'queued']);
    // the node finds the first one's folder unusable (as a link planted there would be)
    applies().mockRejectedValueOnce(FieldErrors.one('sites.1.folder', 'hosting.error.folder_escape'));
    await startAgent();
    await eventually(async () => (await service()).applying === null);
    const sites = await t.database.db
      .selectFrom('web_sites')
      .select('subdomain')
      .where('service_id', '=', id)
      .execute();
    expect(sites.map((row) => row.subdomain)).not.toContain('uno');
    expect(sites.map((row) => row.subdomain)).not.toContain('dos');
    const outcomes = await t.database.db
      .selectFrom('service_changes')
      .select(['state', 'outcome'])
      .where('service_id', '=', id)
      .where('state', '=', 'refused')
      .orderBy('id')
      .execute();
    expect(outcomes.map((row) => JSON.parse(row.outcome as string))).toEqual([
      { refused: { fields: [{ field: 'sites.1.folder', messageKey: 'hosting.error.folder_escape' }] } },
      { refused: { fields: [] } },
    ]);
    // what is served is the database again: neither site
    expect(nginxConf()).not.toContain('uno.agente.test');
    expect(nginxConf()).not.toContain('dos.agente.test');
    vi.restoreAllMocks();
  });

  it('makes an FTP account’s folder on the node, not in the API: pending while away, made when back', async () => {
    await stopAgent();
    const folder = path.join(nodeHomes, DOMAIN, 'cargas');
    const created = await t.call(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'subidas', password: 'ftp secret 1', folder: 'cargas' },
      { cookie },
    );
    expect(created.body.system.info).toEqual(['Cuenta FTP creada', BEING_APPLIED]);
    expect(created.body.system.job).toMatchObject({ status: 'queued' });
    const ftpState = async () =>
      (await t.call<{ applying: unknown }>('GET', `service/${id}/ftp/main/`, {}, { cookie })).body.data.applying;
    expect(await ftpState()).toMatchObject({ state: 'pending', reason: null });
    expect(existsSync(folder)).toBe(false);

    await startAgent();
    await eventually(async () => (await ftpState()) === null);
    expect(statSync(folder).isDirectory()).toBe(true);
  });

  it('writes a mailbox’s Sieve script on the node: pending while away, written when back; its mail goes there too', async () => {
    const home = path.join(nodeMail, DOMAIN, 'info');
    const script = path.join(home, 'sieve', 'panel247.sieve');
    const created = await t.call<{ correo: { id: number } }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'info', password: 'a good password' },
      { cookie },
    );
    expect(created.body.system.job).toBeNull();
    const box = created.body.data.correo.id;

    await stopAgent();
    const saved = await t.call(
      'POST',
      `service/${id}/correo/${box}/rules/save/`,
      {
        autoreply: 'false',
        subject: '',
        body: '',
        start: '',
        end: '',
        days: '1',
        forward: ['otra@example.com'],
        keepCopy: 'true',
      },
      { cookie },
    );
    expect(saved.body.system.info).toContain(BEING_APPLIED);
    expect(existsSync(script)).toBe(false);
    const mailState = async () =>
      (await t.call<{ applying: unknown }>('GET', `service/${id}/mail/list/`, {}, { cookie })).body.data.applying;
    expect(await mailState()).toMatchObject({ state: 'pending', reason: null });
    await startAgent();
    await eventually(async () => existsSync(script));
    await eventually(async () => (await mailState()) === null);
    const retried = await t.call('POST', `service/${id}/mail/apply/`, {}, { cookie });
    expect(retried.body.system.info).toEqual([
      'Todos los cambios de los buzones están aplicados en el servidor de correo',
    ]);
    expect(readFileSync(script, 'utf8')).toContain('otra@example.com');

    await stopAgent();
    mkdirSync(path.join(home, 'cur'), { recursive: true });
    const removed = await t.call('POST', `service/${id}/correo/${box}/delete/`, {}, { cookie });
    expect(removed.body.system.info).toContain(BEING_APPLIED);
    expect(existsSync(home)).toBe(true);
    await startAgent();
    await eventually(async () => !existsSync(home));
  });

  it('creates a database on the node, not in the API: pending while away, created once when back', async () => {
    await stopAgent();
    const created$ = vi.spyOn(EmbeddedDatabasesDriver.prototype, 'create');
    const made = await t.call('POST', `service/${id}/ddbb/create/`, { password: 'db secret 1' }, { cookie });
    expect(made.body.system.info).toEqual(['Base de datos creada', BEING_APPLIED]);
    const dbState = async () =>
      (await t.call<{ applying: unknown }>('GET', `service/${id}/ddbb/list/`, {}, { cookie })).body.data.applying;
    expect(await dbState()).toMatchObject({ state: 'pending' });
    expect(created$).not.toHaveBeenCalled();
    await startAgent();
    await eventually(async () => (await dbState()) === null);
    expect(created$).toHaveBeenCalledTimes(1);
    created$.mockRestore();
  });

  /** A job the API's instance sends: it waits while no agent runs, and the agent takes it. */
  const takenOnlyByAgent = async <P>(kind: JobKind<P>, payload: P) => {
    await stopAgent();
    const sender = createJobEngine(t.database);
    await sender.start({ workers: false });
    try {
      const jobId = (await sender.send(kind, payload)) as string;
      const state = async () => (await sender.find(kind, jobId))?.state;
      // the API's instance binds none of the node's kinds: the job waits for an agent
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await state()).toBe('created');
      await startAgent();
      await eventually(async () => (await state()) === 'completed');
    } finally {
      await sender.stop();
    }
  };
  const noSuchRow = 'f'.repeat(32);

  // Each with a target that no longer exists: the job ends at once, doing nothing.
  it('orders certificates on the node: the API only sends the order, the agent takes it', async () => {
    await takenOnlyByAgent(ORDER_SITE_CERTIFICATE, { serviceId: id, siteId: 999_999 });
  });

  it('installs applications, unsigns zones and gives the DKIM signer its keys on the node, not in the API', async () => {
    await takenOnlyByAgent(INSTALL_APPLICATION, {
      jobId: noSuchRow,
      serviceId: id,
      domain: DOMAIN,
      appId: 1,
      folder: 'blog',
      url: `http://${DOMAIN}/blog/`,
      sealedValues: '',
    });
    await takenOnlyByAgent(UNSIGN_ZONE_STEP, { jobId: noSuchRow, serviceId: id, zone: DOMAIN });
    await takenOnlyByAgent(GIVE_DKIM_KEYS, { serviceId: id, domain: DOMAIN });
  });

  it('backs a service up on the node: queued while away, done when back; the daily run is the node’s too', async () => {
    requireBinary('restic', 'restic');
    const home = path.join(nodeHomes, DOMAIN);
    mkdirSync(path.join(home, 'site'), { recursive: true });
    writeFileSync(path.join(home, 'site', 'index.html'), '<h1>agente</h1>');
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', '33:33', home]);
    await stopAgent();
    const started = await t.call<{ job: BackupJob }>('POST', `service/${id}/backups/run/`, {}, { cookie });
    expect(started.body.system.info).toEqual(['Copia de seguridad en marcha']);
    const job = async () =>
      (
        await t.call<{ job: BackupJob }>(
          'GET',
          `service/${id}/backups/job/${started.body.data.job.id}/`,
          {},
          { cookie },
        )
      ).body.data.job;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await job()).toMatchObject({ status: 'queued' });
    await startAgent();
    await eventually(async () => (await job()).status === 'done');
    const snapshots = async () =>
      (await t.call<BackupsListData>('GET', `service/${id}/backups/list/`, {}, { cookie })).body.data.snapshots;
    expect(await snapshots()).toHaveLength(1);

    await takenOnlyByAgent(BACKUP_DAILY, { day: '2031-05-04' });
    expect(await snapshots()).toHaveLength(2);
  });
  it('runs every driver’s sync on the node as a safety net, once no change is on its way', async () => {
    const live = path.join(webDir, 'live', String(id));
    rmSync(live, { recursive: true, force: true });
    // a change still on its way (of no service the rounds know): the sync waits for it
    const waiting = await t.database.db
      .insertInto('service_changes')
      .values({ area: 'web', service_id: 999_999, change: '{}', undo: null, state: 'pending', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await takenOnlyByAgent(NODE_SYNC, {});
    expect(existsSync(live)).toBe(false);
    await t.database.db.deleteFrom('service_changes').where('id', '=', waiting.id).execute();
    await takenOnlyByAgent(NODE_SYNC, {});
    expect(nginxConf()).toContain('now.agente.test');
  });

  it('answers the file manager, the sizes and the error log from the node: the instance’s own folders stay empty', async () => {
    const files = (call: string, params: Record<string, string>) =>
      t.call('POST', `service/${id}/files/${call}/`, params, { cookie });
    expect((await files('mkdir', { path: '', name: 'docs' })).body.system.errors).toEqual([]);
    expect((await files('save', { path: 'docs/leeme.txt', content: 'hola nodo' })).body.system.errors).toEqual([]);
    expect(readFileSync(path.join(nodeHomes, DOMAIN, 'docs', 'leeme.txt'), 'utf8')).toBe('hola nodo');
    const listed = await t.call<FilesListData>('GET', `service/${id}/files/list/`, { path: 'docs' }, { cookie });
    expect(listed.body.data.entries.map((entry) => entry.name)).toEqual(['leeme.txt']);
    const download = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}service/${id}/files/download/?path=docs/leeme.txt`,
      headers: { cookie },
    });
    expect(download.body).toBe('hola nodo');
    expect((await service()).usage.spaceWeb.used).toBeGreaterThan(0);

    // a mailbox's size is its maildir's on the node
    await t.call('POST', `service/${id}/correo/create/`, { name: 'cifras', password: 'a good password' }, { cookie });
    mkdirSync(path.join(nodeMail, DOMAIN, 'cifras', 'Maildir', 'cur'), { recursive: true });
    writeFileSync(path.join(nodeMail, DOMAIN, 'cifras', 'Maildir', 'cur', '1.eml'), Buffer.alloc(5000, 'm'));
    const boxes = await t.call<{ correo: Mailbox[] }>('GET', `service/${id}/correo/list/`, {}, { cookie });
    expect(boxes.body.data.correo.find((box) => box.user.startsWith('cifras'))?.usage).toBeGreaterThanOrEqual(5000);

    mkdirSync(path.join(nodeLogs, String(id)), { recursive: true });
    writeFileSync(
      path.join(nodeLogs, String(id), 'error.log'),
      '2026/11/30 10:00:00 [error] 7#7: *1 open() "/srv/x/favicon.ico" failed (2: No such file or directory)\n',
    );
    const logs = await t.call<{ logs: ErrorLogLine[] }>('GET', `service/${id}/logerror/`, {}, { cookie });
    expect(logs.body.data.logs).toHaveLength(1);

    for (const folder of [t.config.mail.root, t.config.web.logDir]) expect(readdirSync(folder as string)).toEqual([]);
  });

  it('saves a mailbox’s rules while the node is away, and never switches off a script activated there meanwhile', async () => {
    const created = await t.call<{ correo: { id: number } }>(
      'POST',
      `service/${id}/correo/create/`,
      { name: 'propio', password: 'a good password' },
      { cookie },
    );
    const box = created.body.data.correo.id;
    const home = path.join(nodeMail, DOMAIN, 'propio');
    await stopAgent();
    const saved = await t.call(
      'POST',
      `service/${id}/correo/${box}/rules/save/`,
      { autoreply: 'false', subject: '', body: '', start: '', end: '', days: '1', forward: ['x@example.com'] },
      { cookie },
    );
    // the node could not be asked: the change waits, and the node decides when it lands
    expect(saved.body.system.info).toContain(BEING_APPLIED);
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, '.dovecot.sieve'), 'keep;\n');
    await startAgent();
    const mailState = async () =>
      (await t.call<{ applying: unknown }>('GET', `service/${id}/mail/list/`, {}, { cookie })).body.data.applying;
    await eventually(async () => (await mailState()) === null);
    expect(readFileSync(path.join(home, '.dovecot.sieve'), 'utf8')).toBe('keep;\n');
    const rules = await t.call<{ rules: { foreignScript: string | null } }>(
      'GET',
      `service/${id}/correo/${box}/rules/`,
      {},
      { cookie },
    );
    expect(rules.body.data.rules.foreignScript).toBe('.dovecot.sieve');
  });

  it('tells the customer when the node does not answer, and changes nothing', async () => {
    const used = (await service()).usage.spaceWeb.used;
    await stopAgent();
    // a size is shown as last read, and the page answers
    expect((await service()).usage.spaceWeb.used).toBe(used);
    const listed = await t.call('GET', `service/${id}/files/list/`, { path: 'docs' }, { cookie });
    expect(listed.response.statusCode).toBe(502);
    expect(JSON.stringify(listed.body.system)).toContain('El servidor de este servicio no responde');
    await startAgent();
    const again = await t.call('GET', `service/${id}/files/list/`, { path: 'docs' }, { cookie });
    expect(again.response.statusCode).toBe(200);
  });
});
