import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { certificatesRepository } from '../../src/modules/hosting/certificates.repository.ts';
import { buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * A site's automatic certificate through the API with the embedded drivers: who may see and act,
 * what is refused before any order, and the lease that lets one instance order a certificate.
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

  it('gives a certificate’s lease to exactly one of many takers at once, and again once it has run out', async () => {
    await certificatesRepository.upsert(t.database.db, {
      site_id: sid,
      service_id: id,
      challenge: 'http-01',
      state: 'installed',
      updated_at: 1000,
    });
    const takers = await Promise.all(
      Array.from({ length: 10 }, () => certificatesRepository.takeLease(t.database.db, sid, 1000, 1600)),
    );
    expect(takers.filter(Boolean)).toHaveLength(1);
    expect(await certificatesRepository.takeLease(t.database.db, sid, 1500, 2100)).toBe(false);
    expect(await certificatesRepository.takeLease(t.database.db, sid, 1601, 2200)).toBe(true);
    // renewal looks only at certificates whose lease is free
    expect(await certificatesRepository.due(t.database.db, 1700, 10 ** 9, 0)).toEqual([]);
    expect(await certificatesRepository.due(t.database.db, 2300, 10 ** 9, 0)).toEqual([
      { site_id: sid, service_id: id },
    ]);
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
