import type { ConsoleBrand, ConsoleLoginData, ConsolePlan, ConsoleService } from '@panel247/contract/console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { totpCode } from '../../src/modules/auth/totp.ts';
import { StaffUsers } from '../../src/modules/console/staff-users.service.ts';
import { NodesService } from '../../src/modules/nodes/nodes.service.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const STAFF_PASSWORD = 'Staff-console-pass-1';
const OWNER_PASSWORD = 'Owner-console-pass-1';

/**
 * The provider's console: staff users of their own with a second factor set up at the first
 * sign-in, a session apart from customers', and the provisioning done from it.
 */
describe.each(DATABASE_KINDS)('the provider’s console on %s', (kind) => {
  let t: TestApp;
  let staff: StaffUsers;
  let cookie = '';
  const seconds = () => Math.floor(t.clock.now() / 1000);

  beforeAll(async () => {
    t = await buildTestApp(kind);
    staff = new StaffUsers(t.database.db, seconds);
    await staff.add('ana', STAFF_PASSWORD);
  });
  afterAll(() => t.close());

  const login = async (params: Record<string, string>) => {
    const { response, body } = await t.call<ConsoleLoginData>('POST', 'console/login/', params);
    const set = response.cookies.find((c) => c.name.endsWith('p247_staff'));
    return { response, body, cookie: set ? `${set.name}=${set.value}` : undefined };
  };
  const as = <T>(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}, session = cookie) =>
    t.call<T>(method, `console/${route}`, params, { cookie: session });

  it('answers 401 without a staff session, a customer’s session included', async () => {
    expect((await as('GET', 'info/', {}, '')).response.statusCode).toBe(401);
    const customer = await buildAccount(t.database.db, { domainName: 'cliente-consola.test' });
    const customerCookie = await t.login(customer.domainName, customer.username, customer.password);
    const refused = await as('GET', 'services/list/', {}, customerCookie);
    expect(refused.response.statusCode).toBe(401);
    expect(refused.body.system.valid).toBe(false);
  });

  it('signs a staff user in: the password, then the second factor set up at the first sign-in, then codes', async () => {
    const wrong = await login({ username: 'ana', password: 'not-the-password' });
    expect(wrong.response.statusCode).toBe(401);
    expect(wrong.body.system.errors).toEqual(['Usuario o contraseña incorrectos']);
    const first = await login({ username: 'ana', password: STAFF_PASSWORD });
    expect(first.body.data.step).toBe('setup');
    expect(first.cookie).toBeUndefined();
    const secret = first.body.data.setup?.secret as string;
    expect(first.body.data.setup?.uri).toContain('otpauth://totp/');
    expect(first.body.data.setup?.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const badCode = await login({ username: 'ana', password: STAFF_PASSWORD, code: '000000' });
    expect(badCode.response.statusCode).toBe(400);
    const done = await login({ username: 'ana', password: STAFF_PASSWORD, code: totpCode(secret, seconds()) });
    expect(done.body.data).toEqual({ step: 'done' });
    cookie = done.cookie as string;
    expect(cookie).toMatch(/p247_staff=/);
    expect((await as<{ username: string }>('GET', 'info/')).body.data).toEqual({ username: 'ana' });
    // from now on a code is asked for; the code just used is not taken again
    expect((await login({ username: 'ana', password: STAFF_PASSWORD })).body.data).toEqual({ step: 'code' });
    const reused = await login({ username: 'ana', password: STAFF_PASSWORD, code: totpCode(secret, seconds()) });
    expect(reused.response.statusCode).toBe(400);
    // a staff user is nobody's customer user: the customer sign-in does not know them
    const asCustomer = await t.call('POST', 'user/login/', {
      domainName: 'cliente-consola.test',
      username: 'ana',
      password: STAFF_PASSWORD,
    });
    expect(asCustomer.body.system.valid).toBe(false);
  });

  it('makes and changes plans, and refuses to remove one with services', async () => {
    const made = await as<{ plan: ConsolePlan }>('POST', 'plans/save/', {
      create: '1',
      name: 'gold',
      webSpaceMb: '2048',
      mailboxes: '10',
      sites: '',
      phpVersions: '8.2',
      phpWorkers: '8',
    });
    expect(made.body.data.plan).toMatchObject({ name: 'gold', webSpaceMb: 2048, mailboxes: 10, sites: null });
    expect(made.body.data.plan.phpVersions).toEqual(['8.2']);
    const again = await as('POST', 'plans/save/', { create: '1', name: 'gold', phpWorkers: '8' });
    expect(again.response.statusCode).toBe(409);
    const changed = await as<{ plan: ConsolePlan }>('POST', 'plans/save/', {
      name: 'gold',
      webSpaceMb: '4096',
      phpWorkers: '8',
    });
    expect(changed.body.data.plan.webSpaceMb).toBe(4096);
    const bad = await as('POST', 'plans/save/', { create: '1', name: 'Bad Name', phpWorkers: '0' });
    expect(bad.response.statusCode).toBe(400);
    const plans = (await as<{ plans: ConsolePlan[] }>('GET', 'plans/list/')).body.data.plans;
    expect(plans.map((plan) => plan.name)).toEqual(expect.arrayContaining(['default', 'gold']));
  });

  it('creates an account on a plan, lists it, suspends and unsuspends it as the customer sees it', async () => {
    const brands = (await as<{ brands: { slug: string; isDefault: boolean }[] }>('GET', 'brands/list/')).body.data
      .brands;
    expect(brands.some((brand) => brand.isDefault)).toBe(true);
    const created = await as<{ service: ConsoleService }>('POST', 'accounts/create/', {
      domain: 'consola-nuevo.test',
      username: 'owner',
      password: OWNER_PASSWORD,
      email: 'owner@example.net',
      plan: 'gold',
    });
    expect(created.body.data.service).toMatchObject({
      domain: 'consola-nuevo.test',
      account: 'consola-nuevo.test',
      plan: 'gold',
      state: 'active',
      diskLimitBytes: 4096 * 1024 * 1024,
    });
    const listed = await as<{ services: ConsoleService[]; total: number }>('GET', 'services/list/', {
      page: '1',
      filter: 'consola-nuevo',
    });
    expect(listed.body.data.total).toBe(1);
    expect(listed.body.data.services[0]?.domain).toBe('consola-nuevo.test');
    const everything = await as<{ services: ConsoleService[]; total: number }>('GET', 'services/list/', {
      page: '1',
      sort: 'state',
    });
    expect(everything.body.data.total).toBeGreaterThanOrEqual(2);

    const suspended = await as<{ service: ConsoleService }>('POST', 'services/consola-nuevo.test/suspend/', {
      reason: 'Factura impagada',
    });
    expect(suspended.body.data.service).toMatchObject({ state: 'suspended', suspendedReason: 'Factura impagada' });
    const refused = await t.call('POST', 'user/login/', {
      domainName: 'consola-nuevo.test',
      username: 'owner',
      password: OWNER_PASSWORD,
    });
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system.errors[0]).toContain('Factura impagada');
    const lifted = await as<{ service: ConsoleService }>('POST', 'services/consola-nuevo.test/unsuspend/');
    expect(lifted.body.data.service.state).toBe('active');
    expect(await t.login('consola-nuevo.test', 'owner', OWNER_PASSWORD)).toMatch(/p247_sid=/);

    const moved = await as<{ service: ConsoleService }>('POST', 'services/consola-nuevo.test/plan/', {
      plan: 'default',
    });
    expect(moved.body.data.service.plan).toBe('default');
    expect((await as('POST', 'plans/remove/', { name: 'gold' })).response.statusCode).toBe(200);
    expect((await as('POST', 'services/nadie.test/suspend/')).response.statusCode).toBe(404);
  });

  it('shows every account with its users, the work log, the outbox, all activity and the servers down', async () => {
    const accounts = await as<{ accounts: { domain: string; services: number; users: number }[]; total: number }>(
      'GET',
      'accounts/list/',
      { page: '1', filter: 'consola-nuevo' },
    );
    expect(accounts.body.data.accounts).toEqual([
      expect.objectContaining({ domain: 'consola-nuevo.test', services: 1, users: 1 }),
    ]);
    const users = await as<{ users: { username: string; secondFactor: boolean }[] }>(
      'GET',
      'accounts/consola-nuevo.test/users/',
    );
    expect(users.body.data.users).toEqual([
      expect.objectContaining({
        username: 'owner',
        email: 'owner@example.net',
        secondFactor: false,
        manageUsers: true,
        disabled: false,
      }),
    ]);
    expect((await as('GET', 'accounts/nadie.test/users/')).response.statusCode).toBe(404);
    // the owner manages the account's users and, being the only user, keeps that right
    const taken = await as('POST', 'accounts/consola-nuevo.test/users/owner/manager/', { manageUsers: 'false' });
    expect(taken.response.statusCode).toBe(409);
    expect(
      (await as('POST', 'accounts/consola-nuevo.test/users/nadie/manager/', { manageUsers: 'true' })).response
        .statusCode,
    ).toBe(404);

    const work = await as<{ jobs: { id: string; state: string }[]; changes: unknown[] }>('GET', 'work/list/', {
      state: 'failed',
    });
    expect(work.body.data.jobs.every((job) => job.state === 'failed')).toBe(true);
    expect(Array.isArray(work.body.data.changes)).toBe(true);
    const notFailed = await as('POST', 'work/00000000-0000-4000-8000-000000000000/retry/');
    expect(notFailed.response.statusCode).toBe(404);
    // a job that failed for good, run again from the console
    let runs = 0;
    const flaky = defineJob({
      name: 'test.fails-once',
      payload: z.object({}),
      policy: 'standard',
      retry: { limit: 0, delaySeconds: 1, backoff: false },
      expireSeconds: 60,
    });
    await t.services.jobs.work(flaky, async () => {
      runs += 1;
      if (runs === 1) throw new Error('the daemon was down');
    });
    const id = (await t.services.jobs.send(flaky, {})) as string;
    const failedOne = async () =>
      (
        await as<{ jobs: { id: string; error: string | null }[] }>('GET', 'work/list/', { state: 'failed' })
      ).body.data.jobs.find((job) => job.id === id);
    for (let i = 0; i < 100 && !(await failedOne()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await failedOne())?.error).toContain('the daemon was down');
    const retried = await as<{ job: { id: string; state: string } }>('POST', `work/${id}/retry/`);
    expect(retried.response.statusCode).toBe(200);
    expect(retried.body.data.job.id).toBe(id);
    for (let i = 0; i < 100 && runs < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(2);
    expect(await failedOne()).toBeUndefined();

    await t.database.db
      .insertInto('outbox')
      .values({
        brand_id: 1,
        kind: 'contact',
        to_address: 'soporte@example.net',
        reply_to: '',
        subject: 'Hola',
        body: 'texto',
        created_at: seconds(),
        sent_at: null,
        error: 'SMTP down',
      })
      .execute();
    const outbox = await as<{ messages: { subject: string; error: string | null }[] }>('GET', 'outbox/list/', {
      unsent: '1',
    });
    expect(outbox.body.data.messages[0]).toMatchObject({ subject: 'Hola', error: 'SMTP down' });

    const activity = await as<{ entries: { account: string; username: string }[]; total: number }>(
      'GET',
      'activity/list/',
      { filter: 'consola-nuevo' },
    );
    expect(activity.body.data.total).toBeGreaterThan(0);
    expect(activity.body.data.entries.every((entry) => entry.account === 'consola-nuevo.test')).toBe(true);

    await new NodesService(t.database.db, seconds).add({
      name: 'web-9',
      roles: ['web'],
      capacity: 100,
      host: 'web-9.example.net',
      channelUrl: 'http://192.0.2.9:7070/',
      ipv4: '192.0.2.9',
      ipv6: '',
    });
    const servers = await as<{ servers: { name: string; up: boolean }[]; down: number }>('GET', 'servers/list/');
    expect(servers.body.data.servers).toEqual([expect.objectContaining({ name: 'web-9', up: false })]);
    expect(servers.body.data.down).toBe(1);
  });

  it('edits a brand (its look at once in the customers’ configuration) and its privacy policy', async () => {
    const { slug } = (
      await as<{ brands: { slug: string; isDefault: boolean }[] }>('GET', 'brands/list/')
    ).body.data.brands.find((brand) => brand.isDefault) as { slug: string };
    const saved = await as<{ brand: ConsoleBrand }>('POST', `brands/${slug}/save/`, {
      company: 'Hosting Norte SL',
      color: 'teal',
      logo: 'https://cdn.example.net/norte.svg',
      logoMini: '/brand/norte-mini.svg',
      allowColorChange: '0',
      defaultLanguage: 'ca',
      contactEmail: 'soporte@norte.example',
      require2fa: '0',
    });
    expect(saved.body.data.brand).toMatchObject({
      company: 'Hosting Norte SL',
      color: 'teal',
      allowColorChange: false,
    });
    const config = await t.call<{ themeConfig: { color: string; allowColorChange: boolean } }>('GET', 'config/get/');
    expect(config.body.data.themeConfig).toMatchObject({ color: 'teal', allowColorChange: false });
    const badLogo = await as('POST', `brands/${slug}/save/`, {
      company: 'X',
      color: 'teal',
      logo: 'javascript:alert(1)',
      defaultLanguage: 'es',
    });
    expect(badLogo.response.statusCode).toBe(400);
    const legal = await as<{ brand: ConsoleBrand }>('POST', `brands/${slug}/legal/`, {
      language: 'es',
      title: 'Privacidad de Norte',
      body: 'Tratamos tus datos con cuidado.',
    });
    expect(legal.body.data.brand.legal).toEqual([
      { language: 'es', title: 'Privacidad de Norte', body: 'Tratamos tus datos con cuidado.', redirectTo: '' },
    ]);
    expect((await as('GET', 'brands/no-such-brand/')).response.statusCode).toBe(404);
  });

  it('ends the sessions of a staff user whose second factor is reset, and at logout', async () => {
    await staff.resetSecondFactor('ana');
    expect((await as('GET', 'info/')).response.statusCode).toBe(401);
    const first = await login({ username: 'ana', password: STAFF_PASSWORD });
    expect(first.body.data.step).toBe('setup');
    const secret = first.body.data.setup?.secret as string;
    const done = await login({ username: 'ana', password: STAFF_PASSWORD, code: totpCode(secret, seconds()) });
    cookie = done.cookie as string;
    expect((await as('GET', 'info/')).response.statusCode).toBe(200);
    expect((await as('POST', 'logout/')).response.statusCode).toBe(200);
    expect((await as('GET', 'info/')).response.statusCode).toBe(401);
    // a session left idle goes with the customers' expired ones
    const idle = await login({ username: 'ana', password: STAFF_PASSWORD, code: totpCode(secret, seconds() + 30) });
    expect(idle.body.data.step).toBe('done');
    t.clock.advance(t.config.session.idleMinutes * 60 + 1);
    expect(await t.services.console.staff.purgeExpired()).toBe(1);
    expect((await as('GET', 'info/', {}, idle.cookie)).response.statusCode).toBe(401);
  });
});
