import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CdsScanData, DnssecJobData, DnssecZoneData } from '@panel247/contract/dnssec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../../../scripts/daemons/powerdns.ts';
import { PowerDnsDriver } from '../../src/drivers/dns/powerdns.driver.ts';
import type { CdsChange } from '../../src/modules/domain/cds-scan.service.ts';
import { createDomainServices } from '../../src/modules/domain/create-domain-services.ts';
import { UNSIGN_ZONE_STEP } from '../../src/modules/domain/zone-dnssec.jobs.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const run = promisify(execFile);

/** delv (bind9-dnsutils) against the test's PowerDNS, with `anchor`'s key as the only trust anchor. */
async function delv(pdns: PowerDns, anchorsFile: string, root: string, name: string, type: string): Promise<string> {
  const { stdout, stderr } = await run('delv', [
    '-a',
    anchorsFile,
    `+root=${root}`,
    '@127.0.0.1',
    '-p',
    String(pdns.dnsPort),
    name,
    type,
  ]).catch((error: { stdout: string; stderr: string }) => error);
  return `${stdout}\n${stderr}`;
}

/** Writes a `trust-anchors` file holding the zone's KSK (as dig reads it from the server). */
async function anchorsFor(pdns: PowerDns, zone: string, dir: string): Promise<string> {
  const ksk = (await pdns.dig(zone, 'DNSKEY')).find((line) => line.startsWith('257 '));
  if (!ksk) throw new Error(`${zone} has no KSK`);
  const [flags, protocol, algorithm, ...key] = ksk.split(' ');
  const file = path.join(dir, `${zone}.anchors`);
  writeFileSync(file, `trust-anchors { ${zone}. static-key ${flags} ${protocol} ${algorithm} "${key.join('')}"; };\n`);
  return file;
}

describe.each(DATABASE_KINDS)('DNSSEC end to end through a real PowerDNS (panel on %s)', (kind) => {
  let pdns: PowerDns;
  let driver: PowerDnsDriver;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-dnssec-'));
  const zone = `signed-${kind}.test`;
  const parent = `parent-${kind}.test`;
  const away = `away.${parent}`;
  /** Each key removal the panel asked PowerDNS for: when, and what the registry held then. */
  const keyRemovals: { zone: string; at: number; registryDs: string[] }[] = [];
  let dnsDriver: PowerDnsDriver;

  const registryDs = async (resourceId: number) =>
    (
      await t.database.db
        .selectFrom('domain_ds_records')
        .select(['keytag', 'digest'])
        .where('resource_id', '=', resourceId)
        .orderBy('keytag')
        .execute()
    ).map((row) => `${row.keytag} ${row.digest}`);
  const pdnsApi = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost${apiPath}`, {
      method,
      headers: { 'x-api-key': pdns.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return response;
  };

  beforeAll(async () => {
    pdns = await startPowerDns();
    driver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    // The panel's own driver: the real one, noting what the registry held when the keys went.
    const panelDriver = new PowerDnsDriver({ apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverId: 'localhost' });
    const removeKeys = panelDriver.removeKeys.bind(panelDriver);
    panelDriver.removeKeys = async (name: string) => {
      const resource = await t.database.db
        .selectFrom('resources')
        .select('id')
        .where('reference_punycode', '=', name)
        .executeTakeFirstOrThrow();
      keyRemovals.push({ zone: name, at: Date.now() / 1000, registryDs: await registryDs(resource.id) });
      return removeKeys(name);
    };
    dnsDriver = panelDriver;
    // The parent zone: it delegates `away.` and publishes the DS the registry holds (as a registry
    // would); its key is the trust anchor the scan validates from.
    await driver.ensureZone(parent, [`ns1.${parent}`]);
    await driver.replaceRRsets(parent, [
      { name: `ns1.${parent}.`, type: 'A', ttl: 60, contents: ['127.0.0.1'] },
      { name: `ns2.${parent}.`, type: 'A', ttl: 60, contents: ['127.0.0.1'] },
    ]);
    await driver.dsRecords(parent);
    t = await buildTestApp(kind, {
      dnsDriver,
      config: {
        'dns.driver': 'powerdns',
        'dns.powerdnsApiUrl': pdns.apiUrl,
        'dns.powerdnsApiKey': pdns.apiKey,
        'registry.resolvers': [`127.0.0.1:${pdns.dnsPort}`],
        'dnssec.unsignWaitSeconds': 2,
        'dnssec.scanSeconds': 0,
        'dnssec.trustAnchors': await anchorsFor(pdns, parent, dir),
        'dnssec.trustRoot': parent,
      },
    });
    account = await buildAccount(t.database.db, {
      domainName: zone,
      resources: {
        [zone]: { hasDomain: true, hasService: true, hasMail: false },
        [away]: { hasDomain: true, hasService: false, hasMail: false },
      },
    });
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
    await pdns?.stop();
  });

  it('signs, publishes the DS, validates with delv, then unsigns in order: the DS goes, the wait, the keys', async () => {
    const id = account.resources[zone] as number;
    const before = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie });
    expect(before.body.data).toMatchObject({ state: 'unsigned', ds: [], writable: true, registry: true, job: null });

    const signed = await t.call<DnssecZoneData>('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie });
    expect(signed.body.system.errors).toEqual([]);
    expect(signed.body.data.state).toBe('signed');
    const sha256 = signed.body.data.ds.find((ds) => ds.digestType === 2);
    expect(sha256).toMatchObject({ algorithm: 13, atRegistry: true });
    expect(await registryDs(id)).toEqual([`${sha256?.keytag} ${sha256?.digest}`]);

    // answers carry RRSIGs, and delv validates from the zone's own KSK as trust anchor
    const answer = await pdns.dig(zone, 'SOA', ['+dnssec', '+norec', '+noall', '+answer']);
    expect(answer.some((line) => /\sRRSIG\s+SOA\s+13\s/.test(line))).toBe(true);
    const anchors = await anchorsFor(pdns, zone, dir);
    expect(await delv(pdns, anchors, zone, zone, 'SOA')).toContain('; fully validated');

    // unsigning: watch the registry and the keys at every poll until the job ends
    const started = await t.call<DnssecJobData>('POST', `service/${id}/dns/dnssec/unsign/`, {}, { cookie });
    expect(started.body.data.job).toMatchObject({ status: 'running', step: 'removing_ds' });
    const jobId = started.body.data.job.id;
    const seen: string[] = [];
    const observe = async () => {
      const [ds, keys] = await Promise.all([registryDs(id), pdns.dig(zone, 'DNSKEY')]);
      const state = `${ds.length > 0 ? 'ds' : 'no-ds'}+${keys.length > 0 ? 'keys' : 'no-keys'}`;
      if (seen.at(-1) !== state) seen.push(state);
    };
    for (;;) {
      await observe();
      const job = await t.call<DnssecJobData>('GET', `service/${id}/dns/dnssec/job/${jobId}/`, {}, { cookie });
      if (job.body.data.job.status !== 'running') {
        expect(job.body.data.job).toMatchObject({ status: 'done', step: 'done', error: '' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await observe();
    // when the keys went the registry held no DS, and the wait after the DS removal had passed
    const done = await t.call<DnssecJobData>('GET', `service/${id}/dns/dnssec/job/${jobId}/`, {}, { cookie });
    expect(keyRemovals.filter((removal) => removal.zone === zone)).toEqual([
      { zone, at: expect.any(Number), registryDs: [] },
    ]);
    expect(keyRemovals[0]?.at).toBeGreaterThanOrEqual(done.body.data.job.waitUntil);
    expect(done.body.data.job.waitSeconds).toBe(2);
    // and what a client saw at each poll: never keys gone with a DS still at the registry
    expect(seen).not.toContain('ds+no-keys');
    expect(seen.at(-1)).toBe('no-ds+no-keys');
    const after = await pdns.dig(zone, 'SOA', ['+dnssec', '+norec', '+noall', '+answer']);
    expect(after.some((line) => /\sRRSIG\s/.test(line))).toBe(false);
    const state = await t.call<DnssecZoneData>('GET', `service/${id}/dns/dnssec/`, {}, { cookie });
    expect(state.body.data).toMatchObject({ state: 'unsigned', ds: [], job: { status: 'done' } });
  });

  it('a job is carried on from the step its row records, once however often its step is sent', async () => {
    const id = account.resources[zone] as number;
    await t.call('POST', `service/${id}/dns/dnssec/sign/`, {}, { cookie });
    expect(await registryDs(id)).toHaveLength(1);
    // as an instance that died right after recording the job leaves it
    const jobId = 'f'.repeat(32);
    await t.database.db
      .insertInto('dnssec_unsign_jobs')
      .values({
        id: jobId,
        service_id: id,
        user_id: account.userId,
        status: 'running',
        step: 'removing_ds',
        wait_seconds: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    // sent twice, as two instances that each thought the step lost would: one step waits, one runs
    const step = { jobId, serviceId: id, zone };
    await Promise.all([t.services.jobs.send(UNSIGN_ZONE_STEP, step), t.services.jobs.send(UNSIGN_ZONE_STEP, step)]);
    for (;;) {
      const job = await t.call<DnssecJobData>('GET', `service/${id}/dns/dnssec/job/${jobId}/`, {}, { cookie });
      if (job.body.data.job.status !== 'running') {
        expect(job.body.data.job.status).toBe('done');
        break;
      }
      // while the keys are there the job may still be at any step; once they are gone no DS is left
      if ((await pdns.dig(zone, 'DNSKEY')).length === 0) expect(await registryDs(id)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await registryDs(id)).toEqual([]);
    expect(await pdns.dig(zone, 'DNSKEY')).toEqual([]);
  });

  it('picks a CDS update up from a zone hosted elsewhere, validated from the parent’s key', async () => {
    const id = account.resources[away] as number;
    // the child zone, served by "another provider" (here the same PowerDNS, outside the panel)
    await driver.ensureZone(away, [`ns1.${parent}`]);
    const [first] = (await driver.dsRecords(away)).filter((ds) => ds.digestType === 2);
    if (!first) throw new Error('no DS');
    /** The parent publishes the delegation and whatever DS the registry now holds. */
    const publishParent = async () => {
      const rows = await t.database.db
        .selectFrom('domain_ds_records')
        .selectAll()
        .where('resource_id', '=', id)
        .execute();
      await driver.replaceRRsets(parent, [
        { name: `${away}.`, type: 'NS', ttl: 60, contents: [`ns1.${parent}.`] },
        {
          name: `${away}.`,
          type: 'DS',
          ttl: 60,
          contents: rows.map((row) => `${row.keytag} ${row.algorithm} ${row.digest_type} ${row.digest}`),
        },
      ]);
      await pdnsApi('PUT', `/zones/${parent}./rectify`);
    };
    // the domain moves to its own name servers and gets the child's DS
    const moved = await t.call(
      'POST',
      `domain/${id}/dnsedit/`,
      { 'dns[]': [`ns1.${parent}`, `ns2.${parent}`] },
      { cookie },
    );
    expect(moved.body.system.errors).toEqual([]);
    const created = await t.call(
      'POST',
      `domain/${id}/dnssec/create/`,
      { keytag: String(first.keytag), algorithm: '13', digesttype: '2', digest: first.digest },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    await publishParent();

    const changes: CdsChange[] = [];
    const { domains } = createDomainServices(
      t.database.db,
      t.config,
      driver,
      TEST_SECRET_KEY,
      () => Math.floor(Date.now() / 1000),
      { events: { unsignFailed: () => undefined, cdsChanged: (change) => changes.push(change) } },
    );
    const scanAway = async () => (await domains.cdsScan.scanAll()).find((result) => result.domain === away);

    expect(await scanAway()).toMatchObject({ outcome: 'no_cds' });

    // a key rollover starts: a second key, and CDS for both (PowerDNS PUBLISH-CDS)
    await pdnsApi('POST', `/zones/${away}./cryptokeys`, { keytype: 'csk', active: true, algorithm: 'ECDSAP256SHA256' });
    await pdnsApi('PUT', `/zones/${away}./metadata/PUBLISH-CDS`, { metadata: ['2'] });
    await pdnsApi('PUT', `/zones/${away}./metadata/PUBLISH-CDNSKEY`, { metadata: ['1'] });
    await pdnsApi('PUT', `/cache/flush?domain=${away}.`);
    expect(await delv(pdns, t.config.dnssec.trustAnchors as string, parent, away, 'CDS')).toContain(
      '; fully validated',
    );
    const both = (await driver.signedDs(away)).filter((ds) => ds.digestType === 2);
    expect(both).toHaveLength(2);
    expect(await scanAway()).toMatchObject({ outcome: 'updated' });
    expect(await registryDs(id)).toEqual(
      both.map((ds) => `${ds.keytag} ${ds.digest}`).sort((x, y) => Number(x.split(' ')[0]) - Number(y.split(' ')[0])),
    );
    expect(changes).toEqual([{ domain: away, removed: [], added: [expect.stringMatching(/ 13 2 [0-9a-f]{64}$/)] }]);
    const card = await t.call<CdsScanData>('GET', `domain/${id}/dnssec/scan/`, {}, { cookie });
    expect(card.body.data.scan).toMatchObject({ outcome: 'updated' });
    expect(card.body.data.scan?.checkedAt).toBeGreaterThan(0);
    await publishParent();
    expect(await scanAway()).toMatchObject({ outcome: 'unchanged' });

    // a registry DS that no key of the child matches: validated data, but not signed by a DS key
    const real = await t.database.db
      .selectFrom('domain_ds_records')
      .selectAll()
      .where('resource_id', '=', id)
      .execute();
    await t.database.db
      .updateTable('domain_ds_records')
      .set({ digest: 'ab'.repeat(32) })
      .where('resource_id', '=', id)
      .execute();
    expect(await scanAway()).toMatchObject({ outcome: 'refused', detail: 'dnssec.scan.not_signed_by_ds' });
    const refusedCard = await t.call<CdsScanData>('GET', `domain/${id}/dnssec/scan/`, {}, { cookie });
    expect(refusedCard.body.data.scan?.detail).toMatch(/DNSKEY/);
    for (const row of real) {
      await t.database.db
        .updateTable('domain_ds_records')
        .set({ digest: row.digest })
        .where('id', '=', row.id)
        .execute();
    }

    // RFC 8078 delete: CDS "0 0 0 00" (and CDNSKEY "0 3 0 AA==") alone remove every DS
    await pdnsApi('DELETE', `/zones/${away}./metadata/PUBLISH-CDS`);
    await pdnsApi('DELETE', `/zones/${away}./metadata/PUBLISH-CDNSKEY`);
    await pdnsApi('PUT', `/cache/flush?domain=${away}.`);
    await driver.replaceRRsets(away, [
      { name: `${away}.`, type: 'CDS', ttl: 60, contents: ['0 0 0 00'] },
      { name: `${away}.`, type: 'CDNSKEY', ttl: 60, contents: ['0 3 0 AA=='] },
    ]);
    expect(await scanAway()).toMatchObject({ outcome: 'deleted' });
    expect(await registryDs(id)).toEqual([]);
  });
});
