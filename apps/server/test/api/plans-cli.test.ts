import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Migration, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { MIGRATIONS } from '../../src/db/migrations/index.ts';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import type { Plan } from '../../src/modules/plans/plan.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** The migrations before plans were data. */
const BEFORE_PLANS: Record<string, Migration> = Object.fromEntries(
  Object.entries(MIGRATIONS).filter(([name]) => name < '0038-plans'),
);

describe('upgrading to plans', () => {
  it('puts every existing service on the plan default, made from the configuration of the panel that upgrades', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'p247-plans-upgrade-'));
    try {
      const { db } = openDatabase({ sqliteFile: path.join(dataDir, 'panel.sqlite') });
      const migrator = new Migrator({ db, provider: { getMigrations: async () => BEFORE_PLANS } });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const admin = new AdminService(db, new LocalEventBus(), () => 1_800_000_000);
      await admin.ensureBrand({ slug: 'old', company: 'Old', isDefault: true });
      const accountId = await admin.ensureAccount('antigua.test', 'old');
      await db
        .insertInto('resources')
        .values({
          account_id: accountId,
          reference: 'antigua.test',
          reference_punycode: 'antigua.test',
          has_domain: 0,
          has_service: 1,
          has_mail: 0,
          is_redir_and_parking: 0,
          domain_expire_ts: null,
          service_expire_ts: null,
          mail_expire_ts: null,
          created_at: 1_800_000_000,
        } as never)
        .execute();
      await db.destroy();

      const env = {
        PANEL_DATA_DIR: dataDir,
        PANEL_LOG_LEVEL: 'silent',
        PANEL_HOSTING_WEB_SPACE_MB: '2048',
        PANEL_DATABASES_MAX_PER_SERVICE: '3',
        PANEL_MAIL_MAX_QUOTA_MB: '500',
        PANEL_BACKUP_QUOTA_MB: '700',
      };
      const listed = await runPanel(env, ['plan', 'list', '--json']);
      expect(listed.code).toBe(0);
      const [plan] = (JSON.parse(listed.stdout) as { plans: Plan[] }).plans;
      expect(plan).toMatchObject({
        name: 'default',
        services: 1,
        webSpaceMb: 2048,
        databases: 3,
        mailboxMb: 500,
        backupMb: 700,
        sites: null,
        mailboxes: null,
        phpWorkers: 5,
      });
      // once upgraded, the variables are not read again: the plan is the provider's
      const later = await runPanel({ ...env, PANEL_DATABASES_MAX_PER_SERVICE: '9' }, ['plan', 'list', '--json']);
      expect((JSON.parse(later.stdout) as { plans: Plan[] }).plans[0]?.databases).toBe(3);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(DATABASE_KINDS)('panel plan on %s', (kind) => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'p247-plans-cli-'));
    database = await createTestDatabase(kind, { sqliteFile: path.join(dataDir, 'panel.sqlite') });
    await buildAccount(database.db, {
      domainName: 'cliente.test',
      resources: { 'cliente.test': { hasService: true } },
    });
    env = {
      PANEL_DATA_DIR: dataDir,
      PANEL_LOG_LEVEL: 'silent',
      PANEL_HOSTING_ROOT: path.join(dataDir, 'www'),
      PANEL_WEB_PHP_SOCKETS: '8.2=/run/php/panel247-8.2,8.3=/run/php/panel247-8.3',
      ...(kind === 'postgres' ? { PANEL_DATABASE_URL: database.url as string } : {}),
    };
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runPanel(env, args);
  const plans = async () => (JSON.parse((await cli('plan', 'list', '--json')).stdout) as { plans: Plan[] }).plans;

  it('adds a plan with its limits; those not given are unlimited', async () => {
    const added = await cli(
      'plan',
      'add',
      'basico',
      '--mailboxes',
      '3',
      '--web-space-mb',
      '500',
      '--php-versions',
      '8.3',
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('mailboxes 3');
    const plan = (await plans()).find((each) => each.name === 'basico');
    expect(plan).toMatchObject({ mailboxes: 3, webSpaceMb: 500, sites: null, phpVersions: ['8.3'], services: 0 });
  });

  it('refuses bad input with a message naming the option', async () => {
    expect((await cli('plan', 'add', 'Basico')).stderr).toContain('must be a-z, 0-9 and inner hyphens');
    expect((await cli('plan', 'add', 'otro', '--sites', '-1')).code).toBe(1);
    expect((await cli('plan', 'add', 'otro', '--php-versions', '5.6')).stderr).toContain('The server has no PHP 5.6');
    expect((await cli('plan', 'add', 'otro', '--php-workers', '500')).code).toBe(1);
    expect((await cli('plan', 'set', 'basico')).stderr).toContain('Give at least one limit');
    expect((await cli('plan', 'assign', 'nadie.test', 'basico')).stderr).toContain("No hosting service 'nadie.test'");
  });

  it('assigns a service, changes a limit and makes one unlimited again, then removes only a plan not in use', async () => {
    expect((await cli('plan', 'assign', 'cliente.test', 'basico')).code).toBe(0);
    expect((await plans()).find((each) => each.name === 'basico')?.services).toBe(1);
    expect((await cli('plan', 'set', 'basico', '--mailboxes', 'unlimited', '--php-workers', '8')).code).toBe(0);
    expect((await plans()).find((each) => each.name === 'basico')).toMatchObject({ mailboxes: null, phpWorkers: 8 });
    const inUse = await cli('plan', 'remove', 'basico');
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toContain('The plan has 1 services');
    expect((await cli('plan', 'assign', 'cliente.test', 'default')).code).toBe(0);
    expect((await cli('plan', 'remove', 'basico')).code).toBe(0);
    expect((await plans()).map((each) => each.name)).toEqual(['default']);
  });

  it('puts a new service on the plan given, or default', async () => {
    await cli('plan', 'add', 'grande');
    const added = await cli(
      'resource',
      'add',
      '--domain',
      'cliente.test',
      '--reference',
      'nuevo.test',
      '--service',
      '--plan',
      'grande',
    );
    expect(added.code).toBe(0);
    expect((await plans()).find((each) => each.name === 'grande')?.services).toBe(1);
    const unknown = await cli(
      'resource',
      'add',
      '--domain',
      'cliente.test',
      '--reference',
      'otro.test',
      '--service',
      '--plan',
      'nada',
    );
    expect(unknown.stderr).toContain('There is no such plan');
    expect(
      (await cli('resource', 'add', '--domain', 'cliente.test', '--reference', 'm.test', '--mail', '--plan', 'grande'))
        .stderr,
    ).toContain('--plan needs --service');
  });
});
