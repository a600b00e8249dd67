import type { CdsScanData, DnssecJobData, DnssecZoneData } from '@panel247/contract/dnssec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/messages.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { dnssecRepository } from '../../src/modules/domain/dnssec.repository.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { SigningDnsDriver } from '../support/signing-dns-driver.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('the DNS view’s DNSSEC card on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let cookie: string;
  const driver = new SigningDnsDriver();
  const zone = `card-${kind}.test`;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(kind, { config: { 'dnssec.unsignWaitSeconds': 1 }, dnsDriver: driver });
    account = await buildAccount(t.database.db, { domainName: zone });
    other = await buildAccount(t.database.db, { domainName: `other-${kind}.test` });
    id = account.resources[zone] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(() => t.close());

  const registryDs = async () =>
    (await t.database.db.selectFrom('domain_ds_records').select('digest').where('resource_id', '=', id).execute()).map(
      (row) => row.digest,
    );
  const userWith = async (name: string, levels: Record<string, string>) => {
    const user = await buildUser(t.database.db, account, name, { [zone]: { ...allKeys('write'), ...levels } });
    return t.login(account.domainName, user.username, user.password);
  };

  it('another account’s service, or one the user cannot see, is an unknown id on every call', async () => {
    const foreign = other.resources[other.domainName] as number;
    const hidden = await userWith(`hidden-${kind}`, { service_dnszone: 'disabled' });
    for (const [target, c] of [
      [foreign, cookie],
      [id, hidden],
    ] as const) {
      expect((await t.call('GET', `service/${target}/dns/dnssec/`, {}, { cookie: c })).response.statusCode).toBe(404);
      expect((await t.call('POST', `service/${target}/dns/dnssec/sign/`, {}, { cookie: c })).response.statusCode).toBe(
        404,
      );
      expect(
        (await t.call('POST', `service/${target}/dns/dnssec/unsign/`, {}, { cookie: c })).response.statusCode,
      ).toBe(404);
      expect(
        (await t.call('GET', `service/${target}/dns/dnssec/job/${'a'.repeat(32)}/`, {}, { cookie: c })).response
          .statusCode,
      ).toBe(404);
    }
    expect(driver.calls).toEqual([]);
  });

  it('with the zone read-only: sees the state, cannot sign or unsign', async () => {
    const reader = await userWith(`reader-${kind}`, { service_dnszone: 'read' });
    const state = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie: reader });
    expect(state.body.data).toMatchObject({ state: 'unsigned', writable: false, registry: true, job: null });
    expect((await t.call('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie: reader })).response.statusCode).toBe(
      403,
    );
    expect(driver.calls).toEqual([]);
  });

  it('signs without publishing when the user may not change the domain’s DNSSEC', async () => {
    const zoneOnly = await userWith(`zoneonly-${kind}`, { domain_dnssec: 'read' });
    const signed = await t.call<DnssecZoneData>('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie: zoneOnly });
    expect(signed.body.system.info).toEqual([expect.stringMatching(/DNSSEC/)]);
    expect(signed.body.data).toMatchObject({ state: 'signed', registry: false });
    expect(signed.body.data.ds.map((ds) => ds.atRegistry)).toEqual([false, false]);
    expect(await registryDs()).toEqual([]);
  });

  it('signs and publishes the SHA-256 DS in one step; unsigning needs the registry right while a DS is there', async () => {
    const signed = await t.call<DnssecZoneData>('POST', `service/${id}/dns/dnssec/sign/`, { publish: '1' }, { cookie });
    expect(signed.body.system.errors).toEqual([]);
    expect(signed.body.data.ds).toEqual([
      expect.objectContaining({ digestType: 2, atRegistry: true }),
      expect.objectContaining({ digestType: 4, atRegistry: false }),
    ]);
    expect(await registryDs()).toHaveLength(1);
    const zoneOnly = await userWith(`zoneonly2-${kind}`, { domain_dnssec: 'read' });
    const refused = await t.call('POST', `service/${id}/dns/dnssec/unsign/`, {}, { cookie: zoneOnly });
    expect(refused.response.statusCode).toBe(403);
    expect(await registryDs()).toHaveLength(1);
  });

  it('unsigns as a job: the DS leaves the registry, then after the wait the keys', async () => {
    // two at once (a double click, two instances): one job runs, the other call is told it is busy
    const [first, second] = await Promise.all([
      t.call<DnssecJobData>('POST', `service/${id}/dns/dnssec/unsign/`, {}, { cookie }),
      t.call<DnssecJobData>('POST', `service/${id}/dns/dnssec/unsign/`, {}, { cookie }),
    ]);
    expect([first.response.statusCode, second.response.statusCode].sort()).toEqual([200, 409]);
    const started = first.response.statusCode === 200 ? first : second;
    const jobs = await t.database.db
      .selectFrom('dnssec_unsign_jobs')
      .select('id')
      .where('service_id', '=', id)
      .execute();
    expect(jobs).toHaveLength(1);
    expect(started.body.data.job).toMatchObject({ status: 'running', step: 'removing_ds', waitSeconds: 1 });
    const busy = await t.call('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie });
    expect(busy.response.statusCode).toBe(409);
    const during = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie });
    expect(during.body.data.state).toBe('unsigning');
    const jobPath = `service/${id}/dns/dnssec/job/${started.body.data.job.id}/`;
    let job = started.body.data.job;
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await t.call<DnssecJobData>('GET', jobPath, {}, { cookie })).body.data.job;
    }
    expect(job).toMatchObject({ status: 'done', step: 'done' });
    expect(job.waitUntil).toBeGreaterThan(0);
    expect(await registryDs()).toEqual([]);
    expect(driver.calls.at(-1)).toBe(`unsign ${zone}`);
    const after = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie });
    expect(after.body.data).toMatchObject({ state: 'unsigned', ds: [], job: { status: 'done' } });
    // another service's job id is unknown here
    const foreign = other.resources[other.domainName] as number;
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    expect(
      (await t.call('GET', `service/${foreign}/dns/dnssec/job/${job.id}/`, {}, { cookie: otherCookie })).response
        .statusCode,
    ).toBe(404);
    const unsignedAgain = await t.call('POST', `service/${id}/dns/dnssec/unsign/`, {}, { cookie });
    expect(unsignedAgain.response.statusCode).toBe(409);
  });

  it('keeps one running unsign job per service in the database, whoever inserts it', async () => {
    // The same second and ids in either order: the second running job of a service is refused.
    const job = (jobId: string, status = 'running') => ({
      id: jobId,
      service_id: id,
      user_id: null,
      status,
      step: 'removing_ds',
      created_at: 1,
      updated_at: 1,
    });
    expect(await dnssecRepository.insertJob(t.database.db, job('b'.repeat(32)))).toBe(true);
    expect(await dnssecRepository.insertJob(t.database.db, job('a'.repeat(32)))).toBe(false);
    expect(await dnssecRepository.insertJob(t.database.db, job('c'.repeat(32), 'done'))).toBe(true);
    await dnssecRepository.updateJob(t.database.db, 'b'.repeat(32), { status: 'done', updated_at: 2 });
    expect(await dnssecRepository.insertJob(t.database.db, job('a'.repeat(32)))).toBe(true);
    await t.database.db
      .deleteFrom('dnssec_unsign_jobs')
      .where('id', 'in', ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32)])
      .execute();
  });

  it('signs but does not publish while the domain is delegated to other name servers', async () => {
    await t.database.db.updateTable('domains').set({ dns_mode: 'setDNS' }).where('resource_id', '=', id).execute();
    const signed = await t.call<DnssecZoneData>('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie });
    expect(signed.body.system.info).toEqual([translate(t.config.defaultLanguage, 'dnssec.signed_not_delegated')]);
    expect(signed.body.data.state).toBe('signed');
    expect(await registryDs()).toEqual([]);
    await t.database.db.updateTable('domains').set({ dns_mode: 'defaultDNS' }).where('resource_id', '=', id).execute();
  });

  it('the domain card’s last CDS scan: none yet, then the stored one translated; the domain right guards it', async () => {
    const none = await t.call<CdsScanData>('GET', `domain/${id}/dnssec/scan/`, {}, { cookie });
    expect(none.body.data.scan).toBeNull();
    await t.database.db
      .insertInto('dnssec_scans')
      .values({ resource_id: id, outcome: 'refused', detail: 'dnssec.scan.bogus', checked_at: 1_700_000_000 })
      .execute();
    const scan = await t.call<CdsScanData>('GET', `domain/${id}/dnssec/scan/`, {}, { cookie });
    expect(scan.body.data.scan).toEqual({
      outcome: 'refused',
      detail: expect.not.stringContaining('dnssec.scan'),
      checkedAt: 1_700_000_000,
    });
    const hidden = await userWith(`nodnssec-${kind}`, { domain_dnssec: 'disabled' });
    expect((await t.call('GET', `domain/${id}/dnssec/scan/`, {}, { cookie: hidden })).response.statusCode).toBe(404);
    const foreign = other.resources[other.domainName] as number;
    expect((await t.call('GET', `domain/${foreign}/dnssec/scan/`, {}, { cookie })).response.statusCode).toBe(404);
  });
});

describe.each(DATABASE_KINDS)('the DNSSEC card without a signing DNS server on %s', (kind) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('says unavailable and refuses to sign', async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, { domainName: `plain-${kind}.test` });
    const id = account.resources[account.domainName] as number;
    const cookie = await t.login(account.domainName, account.username, account.password);
    const state = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie });
    expect(state.body.data).toMatchObject({ state: 'unavailable', ds: [] });
    expect((await t.call('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie })).response.statusCode).toBe(409);
  });
});
