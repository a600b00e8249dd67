import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchCronUrl, localListen } from '../../src/drivers/cron/cron-exec.ts';
import { CronRunner } from '../../src/modules/cron/cron-runner.ts';
import {
  describeSchedule,
  nextRuns,
  normalSchedule,
  runsAt,
  shortestInterval,
} from '../../src/modules/cron/cron-schedule.ts';
import { checkTarget } from '../../src/modules/cron/cron-target.ts';
import { buildAccount } from '../support/factories.ts';
import { createTestDatabase } from '../support/test-database.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('schedules', () => {
  it('takes five fields, joined by single spaces; anything else is the schedule’s error', () => {
    expect(normalSchedule('  */5   *  * * 1-5 ')).toEqual({ schedule: '*/5 * * * 1-5' });
    expect(normalSchedule('0 3 * jan mon')).toEqual({ schedule: '0 3 * jan mon' });
    for (const bad of ['* * * *', '* * * * * *', '61 * * * *', '@daily', '* * * * $(id)', '0 0 30 2 *'])
      expect(normalSchedule(bad), bad).toHaveProperty('problem');
  });

  it('reads times in the configured zone, across a change of summer time', () => {
    // 03:30 in Madrid is 01:30 UTC in summer and 02:30 UTC in winter (the change is on 25 October 2026)
    const runs = nextRuns('30 3 * * *', 'Europe/Madrid', at('2026-10-24T00:00:00Z'), 2);
    expect(runs).toEqual([at('2026-10-24T01:30:00Z'), at('2026-10-25T02:30:00Z')]);
    expect(runsAt('30 3 * * *', 'Europe/Madrid', at('2026-10-24T01:30:00Z'))).toBe(true);
    expect(runsAt('30 3 * * *', 'UTC', at('2026-10-24T01:30:00Z'))).toBe(false);
  });

  it('finds the shortest gap between two runs, uneven lists included', () => {
    const from = at('2026-12-01T00:00:00Z');
    expect(shortestInterval('*/15 * * * *', 'UTC', from)).toBe(900);
    expect(shortestInterval('0,2,30 * * * *', 'UTC', from)).toBe(120);
    expect(shortestInterval('0 3 * * *', 'UTC', from)).toBe(86_400);
    expect(shortestInterval('0 3 * * 1', 'UTC', from)).toBe(7 * 86_400);
  });

  it('words a schedule in each language', () => {
    expect(describeSchedule('*/5 * * * *', 'en')).toBe('Every 5 minutes');
    expect(describeSchedule('*/5 * * * *', 'ca')).toBe('Cada 5 minuts');
    expect(describeSchedule('0 3 * * *', 'es')).toMatch(/03:00/);
  });
});

describe('targets', () => {
  it('takes a script path inside the home, and refuses every way out', () => {
    expect(checkTarget('php', './cron/a b.php', 'x.test')).toEqual({ target: 'cron/a b.php' });
    for (const bad of ['/etc/x.php', '../x.php', 'a/../../x.php', 'a//x.php', 'x.sh', 'a\\b.php', 'a\nb.php'])
      expect(checkTarget('php', bad, 'x.test'), bad).toEqual({ problem: 'cron.error.script' });
  });

  it('takes a URL of the service’s domain or a name under it, never another host', () => {
    expect(checkTarget('url', 'https://www.x.test/cron?k=1', 'x.test')).toEqual({
      target: 'https://www.x.test/cron?k=1',
    });
    for (const bad of [
      'https://x.test.evil.example/',
      'https://evilx.test/',
      'file:///etc/passwd',
      'http://u:p@x.test/',
    ])
      expect(checkTarget('url', bad, 'x.test'), bad).toEqual({ problem: 'cron.error.url' });
  });
});

describe('a run without the service’s user', () => {
  it('is not run with the panel’s rights: it fails and says why', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const account = await buildAccount(database.db, { domainName: 'sinusuario.test' });
      const serviceId = account.resources['sinusuario.test'] as number;
      const { id } = await database.db
        .insertInto('cron_tasks')
        .values({ service_id: serviceId, kind: 'php', target: 'a.php', schedule: '* * * * *', created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      let ran = false;
      const runner = new CronRunner(
        database.db,
        { hostingRoot: '/nonexistent' },
        async () => undefined,
        {
          php: async () => {
            ran = true;
            return { exitCode: 0, outcome: 'ok', output: '' };
          },
          url: async () => ({ exitCode: 0, outcome: 'ok', output: '' }),
        },
        () => 100,
      );
      await runner.run({ taskId: id, serviceId, trigger: 'manual' });
      expect(ran).toBe(false);
      const run = await database.db.selectFrom('cron_runs').selectAll().executeTakeFirstOrThrow();
      expect(run).toMatchObject({ outcome: 'failed', exit_code: null });
      expect(run.output).toMatch(/service’s user/);
    } finally {
      await database.destroy();
    }
  });
});

describe('a URL task', () => {
  it('asks this server’s own nginx with the URL’s host name, never the customer’s DNS', async () => {
    const seen: { host?: string; url?: string }[] = [];
    const server = http.createServer((request, response) => {
      seen.push({ host: request.headers.host, url: request.url });
      response.statusCode = request.url?.startsWith('/roto') ? 503 : 200;
      response.end('hecho');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const local = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
    try {
      // a name that resolves nowhere: only the local server is asked
      const ok = await fetchCronUrl(
        'http://www.nowhere.invalid/cron.php?k=1',
        { http: local, https: local },
        5000,
        100,
      );
      expect(ok).toEqual({ exitCode: 0, outcome: 'ok', output: 'HTTP 200 OK\nhecho' });
      expect(seen[0]).toEqual({ host: 'www.nowhere.invalid', url: '/cron.php?k=1' });
      const failed = await fetchCronUrl('http://www.nowhere.invalid/roto', { http: local, https: local }, 5000, 100);
      expect(failed).toMatchObject({ exitCode: 1, outcome: 'failed' });
    } finally {
      server.close();
    }
  });

  it('reads nginx’s listen values as where to connect here', () => {
    expect(localListen('80')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(localListen('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(localListen('0.0.0.0:443')).toEqual({ host: '127.0.0.1', port: 443 });
    expect(localListen('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
  });
});
