import { CSRF_HEADER } from '@panel247/contract/constants';
import type { Envelope } from '@panel247/contract/envelope';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type PanelApp } from '../../src/app.ts';
import { type AppConfig, loadConfig } from '../../src/config.ts';
import type { DatabaseKind } from '../../src/db/database.ts';
import type { DnsDriver } from '../../src/drivers/dns/dns.driver.ts';
import { createJobEngine } from '../../src/jobs/create-job-engine.ts';
import type { Mailer } from '../../src/modules/contact/mailer.ts';
import { configuredPlan } from '../../src/modules/plans/configured-plan.ts';
import { PlansService } from '../../src/modules/plans/plans.service.ts';
import { type EventBus, LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** The secret key every test app seals with, for tests that build a service of their own. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

export interface TestClock {
  now(): number;
  advance(seconds: number): void;
}

export function createClock(start = Date.now()): TestClock {
  let current = start;
  return { now: () => current, advance: (seconds) => (current += seconds * 1000) };
}

export interface TestApp extends PanelApp {
  database: TestDatabase;
  config: AppConfig;
  clock: TestClock;
  /** The app's log lines as objects (info and above), in order. */
  logs: Record<string, unknown>[];
  /** Calls the API like the web client: form-encoded, CSRF header, optional cookie. */
  call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    params?: Record<string, string | string[]>,
    options?: { cookie?: string; headers?: Record<string, string> },
  ): Promise<{ response: LightMyRequestResponse; body: Envelope<T> }>;
  /** Logs in and returns the session cookie ("name=value"). */
  login(domainName: string, username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function buildTestApp(
  kind: DatabaseKind,
  options: {
    config?: Record<string, unknown>;
    mailer?: Mailer;
    events?: EventBus;
    database?: TestDatabase;
    /** Keep the app's log lines (info and above) in `logs`, to check what is logged. */
    captureLogs?: boolean;
    /** A DNS driver of the test's own (instead of the one the config names). */
    dnsDriver?: DnsDriver;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig(
    {},
    {
      'captcha.provider': 'none',
      logLevel: 'silent',
      dataDir: '/nonexistent',
      // no daily backup run in the middle of a test
      'backups.dailyAt': '',
      // nor the node's sync repairing what a test set up on purpose
      'agent.syncSeconds': 0,
      ...(options.config ?? {}),
    },
  );
  const clock = createClock();
  const events = options.events ?? new LocalEventBus();
  const logs: Record<string, unknown>[] = [];
  const logger = options.captureLogs
    ? { level: 'info', stream: { write: (line: string) => logs.push(JSON.parse(line)) } }
    : undefined;
  const panel = await buildApp({
    logger,
    config,
    db: database.db,
    events,
    secretKey: TEST_SECRET_KEY,
    clock: clock.now,
    mailer: options.mailer,
    dnsDriver: options.dnsDriver,
    // pg-boss's own supervision at its default pace: each pass counts every queue's jobs, and a
    // pass a second in every test app loaded the machine that the browser tier shares.
    jobs: createJobEngine(database),
    checkAnswers: true,
  });

  // A test database was migrated ahead (a template): the plan `default` takes this app's
  // configuration here, as a panel's does when it runs the plans' migration (runtime.ts).
  await new PlansService(database.db, () => Math.floor(clock.now() / 1000), {
    phpVersions: Object.keys(config.web.phpSockets),
  }).adoptConfiguration(configuredPlan(config));

  const call: TestApp['call'] = async (method, path, params = {}, callOptions = {}) => {
    const headers: Record<string, string> = { [CSRF_HEADER]: '1', ...(callOptions.headers ?? {}) };
    if (callOptions.cookie) headers.cookie = callOptions.cookie;
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, item);
    }
    const url = `${config.basePath}${path}`;
    const response =
      method === 'GET'
        ? await panel.app.inject({ method, url: form.size ? `${url}?${form}` : url, headers })
        : await panel.app.inject({
            method,
            url,
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
            payload: form.toString(),
          });
    return { response, body: response.json() };
  };

  return {
    ...panel,
    database,
    config,
    clock,
    logs,
    call,
    async login(domainName, username, password) {
      const { response, body } = await call('POST', 'user/login/', { domainName, username, password });
      if (!body.system.valid) throw new Error(`login failed: ${body.system.errors.join(', ')}`);
      const cookie = response.cookies.find((c) => c.name.endsWith('p247_sid'));
      if (!cookie) throw new Error('no session cookie');
      return `${cookie.name}=${cookie.value}`;
    },
    async close() {
      await panel.app.close();
      if (!options.database) await database.destroy();
    },
  };
}
