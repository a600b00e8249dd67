import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { BrandService } from '../../src/modules/brand/brand.service.ts';
import { ORDER_SITE_CERTIFICATE } from '../../src/modules/hosting/certificate.jobs.ts';
import { certificatesRepository } from '../../src/modules/hosting/certificates.repository.ts';
import { createHostingService } from '../../src/modules/hosting/create-hosting-service.ts';
import { buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * A site's automatic certificate through the API with the embedded drivers: who may see and act,
 * what is refused before any order, and the renewal round that queues the orders of those due.
 * Orders themselves are proved against Pebble, nginx and PowerDNS in the integration tier.
 */
describe.each(DATABASE_KINDS)('automatic certificates API on %s', (kind) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-certs-api-'));
  const domain = 'cert-api.test';
  let t: TestApp;
  let id: number;
  let sid: number;
  let cookie: string;
  let readerCookie: string;
  let strangerCookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: { dataDir: path.join(dir, 'data'), 'hosting.root': path.join(dir, 'www') },
    });
    const account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true } },
    });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'certs-reader', {
      [domain]: { ...allKeys('disabled'), service: 'read', service_subdomains: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const stranger = await buildAccount(t.database.db, { domainName: 'cert-other.test' });
    strangerCookie = await t.login(stranger.domainName, stranger.username, stranger.password);
    const sites = await t.call<{ subdomains: Subdomain[] }>('GET', `service/${id}/subdomain/list/`, {}, { cookie });
    sid = sites.body.data.subdomains[0]?.id as number;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const state = (as = cookie) =>
    t.call<{ certificate: SiteCertificate | null }>(
      'GET',
      `service/${id}/subdomain/${sid}/certificate/`,
      {},
      {
        cookie: as,
      },
    );
  const auto = (params: Record<string, string>, as = cookie) =>
    t.call('POST', `service/${id}/subdomain/${sid}/certificate/auto/`, params, { cookie: as });

  it('shows no automatic certificate for a site without one, to whoever sees the sites', async () => {
    expect((await state()).body.data.certificate).toBeNull();
    expect((await state(readerCookie)).body.data.certificate).toBeNull();
    // another account's service answers as if it did not exist
    expect((await state(strangerCookie)).response.statusCode).toBe(404);
  });

  it('refuses what would fail before asking any CA, with the reason under its field', async () => {
    const wildcard = await auto({ challenge: 'http-01', wildcard: '1' });
    expect(wildcard.body.system.inputs).toEqual(['wildcard']);
    expect(wildcard.body.system.errors).toEqual(['Un certificado comodín solo se puede comprobar por DNS']);
    // the embedded DNS driver publishes nothing: DNS-01 has nowhere to put its record
    const dns = await auto({ challenge: 'dns-01' });
    expect(dns.body.system.inputs).toEqual(['challenge']);
    expect(dns.body.system.errors).toEqual([
      'La comprobación por DNS necesita la zona en los servidores DNS del panel',
    ]);
    // a parked service answers every request with its parking page
    expect((await t.call('POST', `service/${id}/parking/active/`, {}, { cookie })).body.system.errors).toEqual([]);
    const parked = await auto({ challenge: 'http-01' });
    expect(parked.body.system.inputs).toEqual(['challenge']);
    expect(parked.body.system.errors).toEqual([
      'El servicio está aparcado: la comprobación por HTTP no llegaría al sitio',
    ]);
    await t.call('POST', `service/${id}/parking/disable/`, {}, { cookie });
    // a host redirected whole would answer the CA's request with its redirection
    const redirect = await t.call<{ redirection: { id: number } }>(
      'POST',
      `service/${id}/redirection/create/`,
      { subDomain: '', recurso: '/', urlRedir: 'https://elsewhere.example/', redirType: '301' },
      { cookie },
    );
    expect(redirect.body.system.errors).toEqual([]);
    const redirected = await auto({ challenge: 'http-01' });
    expect(redirected.body.system.errors).toEqual([
      'Este sitio redirige todas sus direcciones: la comprobación por HTTP no llegaría a él',
    ]);
    await t.call('POST', `service/${id}/redirection/${redirect.body.data.redirection.id}/delete/`, {}, { cookie });
    const bad = await auto({ challenge: 'tls-alpn-01' });
    expect(bad.body.system.inputs).toEqual(['challenge']);
    expect((await state()).body.data.certificate).toBeNull();
  });

  it('lets a reader see but not act, and a stranger not at all', async () => {
    expect((await auto({ challenge: 'http-01' }, readerCookie)).response.statusCode).toBe(403);
    expect((await auto({ challenge: 'http-01' }, strangerCookie)).response.statusCode).toBe(404);
    const manual = await t.call(
      'POST',
      `service/${id}/subdomain/${sid}/certificate/manual/`,
      {},
      { cookie: readerCookie },
    );
    expect(manual.response.statusCode).toBe(403);
  });

  it('the renewal round queues an order job for each certificate due, and none for the others', async () => {
    await certificatesRepository.upsert(t.database.db, {
      site_id: sid,
      service_id: id,
      challenge: 'http-01',
      state: 'installed',
      updated_at: 1000,
    });
    await certificatesRepository.update(t.database.db, sid, { expires_at: 5000 });
    const sent: [string, unknown][] = [];
    const jobs = {
      send: async (kind: { name: string }, payload: unknown) => {
        sent.push([kind.name, payload]);
        return 'queued';
      },
    };
    const renewAt = (seconds: number) =>
      createHostingService(
        t.database.db,
        t.config,
        new BrandService(t.database.db),
        TEST_SECRET_KEY,
        () => seconds,
        undefined,
        {
          jobs,
        },
      ).certificates.renewDue();
    // far from its end: nothing to do
    expect(await renewAt(5000 - t.config.acme.renewDays * 86_400 - 10)).toBe(0);
    expect(sent).toEqual([]);
    expect(await renewAt(4000)).toBe(1);
    expect(sent).toEqual([[ORDER_SITE_CERTIFICATE.name, { serviceId: id, siteId: sid }]]);
    // one waiting order per site, whoever asks again (the engine's rule, api/job-engine.test.ts)
    expect(ORDER_SITE_CERTIFICATE.policy).toBe('once');
    expect(ORDER_SITE_CERTIFICATE.key?.({ serviceId: id, siteId: sid })).toBe(`site-${sid}`);
    // the reader sees the state, the owner may go back to managing the certificate
    expect((await state(readerCookie)).body.data.certificate).toMatchObject({
      state: 'installed',
      challenge: 'http-01',
    });
    const manual = await t.call('POST', `service/${id}/subdomain/${sid}/certificate/manual/`, {}, { cookie });
    expect(manual.body.system.errors).toEqual([]);
    expect((await state()).body.data.certificate).toBeNull();
  });
});
