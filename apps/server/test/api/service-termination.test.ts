import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEngine } from '../../src/jobs/job-engine.ts';
import { ServiceTerminations, terminationView } from '../../src/modules/provider/service-termination.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * A termination's job when a step fails: nothing is deleted before the last backup exists, the
 * failure is recorded on the last try (the console shows it and retries), and starting it again
 * goes on from where it stopped.
 */
describe.each(DATABASE_KINDS)('a service termination that fails on %s', (kind) => {
  let t: TestApp;
  let serviceId: number;
  const sent: unknown[] = [];

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, {
      domainName: 'falla-baja.test',
      resources: { 'falla-baja.test': { hasService: true } },
    });
    serviceId = account.resources['falla-baja.test'] as number;
  });
  afterAll(() => t.close());

  const terminations = (backup: () => Promise<{ id: string }>) =>
    new ServiceTerminations({
      db: t.database.db,
      now: () => Math.floor(t.clock.now() / 1000),
      jobs: {
        send: async (_kind: unknown, payload: unknown) => {
          sent.push(payload);
          return null;
        },
        find: async () => undefined,
      } as unknown as Pick<JobEngine, 'send' | 'find'>,
      backups: async () => ({ lastBackup: backup as never }),
      dns: { removeZone: async () => undefined },
      ownerOf: async () => undefined,
      idempotency: { forget: async () => undefined },
      keepDays: 30,
      serverWaitMs: 1000,
    });

  it('keeps every row while the last backup fails, records the failure on the last try, and starts again', async () => {
    const failing = terminations(async () => {
      throw new Error('restic: repository locked');
    });
    await failing.start({ id: serviceId, domain: 'falla-baja.test', accountId: 1 });
    expect(sent).toEqual([{ serviceId }]);
    await expect(failing.run(serviceId, false)).rejects.toThrow('repository locked');
    const resource = () => t.database.db.selectFrom('resources').select('id').where('id', '=', serviceId).execute();
    expect(await resource()).toHaveLength(1);
    expect(terminationView((await failing.waitFor(serviceId, 0)) as never).state).toBe('terminating');
    await expect(failing.run(serviceId, true)).rejects.toThrow('repository locked');
    const failed = terminationView(await failing.waitFor(serviceId, 0));
    expect(failed).toMatchObject({ state: 'failed', error: 'restic: repository locked', lastBackup: '' });
    expect(await resource()).toHaveLength(1);

    // started again (the console's retry, or the billing system's): running, and its job sent again
    const working = terminations(async () => ({ id: 'abcdef12' }));
    const again = await working.start({ id: serviceId, domain: 'falla-baja.test', accountId: 1 });
    expect(again.state).toBe('running');
    expect(sent).toHaveLength(2);
  });
});
