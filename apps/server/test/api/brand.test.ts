import type { ConfigData } from '@panel247/contract/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../../src/modules/admin/admin.service.ts';
import { BrandService } from '../../src/modules/brand/brand.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('white label: the brand of a request on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const admin = new AdminService(t.database.db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
    await admin.ensureBrand({
      slug: 'house',
      company: 'House Hosting',
      isDefault: true,
      logo: '/house.svg',
      logoMini: '/house-mini.svg',
    });
    await admin.ensureBrand({
      slug: 'acme',
      company: 'Acme Hosting',
      color: 'emerald',
      allowColorChange: false,
      defaultLanguage: 'en',
      channel: 'acme_channel',
      hosts: ['panel.acme.test'],
    });
    await admin.ensureBrand({
      slug: 'beta',
      company: 'Beta Web',
      color: 'rose',
      logo: 'https://cdn.beta.test/logo.svg',
      logoMini: 'https://cdn.beta.test/mini.svg',
      hosts: ['Panel.Beta.test'],
    });
  });
  afterAll(() => t.close());

  const config = async (headers: Record<string, string>, params: Record<string, string> = {}) => {
    const { response, body } = await t.call<ConfigData>('GET', 'config/get/', params, { headers });
    expect(response.statusCode).toBe(200);
    return body.data;
  };

  it('picks the brand by the Host header, without port or case', async () => {
    for (const host of ['panel.acme.test', 'PANEL.ACME.TEST:8443']) {
      const data = await config({ host });
      expect(data, host).toMatchObject({
        company: 'Acme Hosting',
        themeConfig: { color: 'emerald', allowColorChange: false },
        defaultLanguage: 'en',
        language: 'en',
        channel: 'acme_channel',
      });
    }
    // Hosts are stored lower-cased, so a brand added as Panel.Beta.test matches too.
    expect((await config({ host: 'panel.beta.test' })).company).toBe('Beta Web');
  });

  it('gives the default brand to an unknown or odd host', async () => {
    for (const host of ['unknown.test', '127.0.0.1:8247', 'bad host!']) {
      expect((await config({ host })).company, host).toBe('House Hosting');
    }
  });

  it('lets _referer_ pick the brand over the Host (the panel shown under another site)', async () => {
    const data = await config({ host: 'panel.acme.test' }, { _referer_: 'https://panel.beta.test/clientes/panel?x=1' });
    expect(data).toMatchObject({ company: 'Beta Web', themeConfig: { color: 'rose' } });
    // A referer that is not a URL, or names no brand, leaves the Host's choice / the default.
    expect((await config({ host: 'panel.acme.test' }, { _referer_: 'not a url' })).company).toBe('Acme Hosting');
    expect((await config({ host: 'panel.acme.test' }, { _referer_: 'https://elsewhere.test/' })).company).toBe(
      'House Hosting',
    );
  });

  it('gives the default logos when the brand has none, and serves them', async () => {
    const acme = await config({ host: 'panel.acme.test' });
    expect(acme.themeConfig).toMatchObject({
      logo: '/branding/default-logo.svg',
      logo_mini: '/branding/default-logo-mini.svg',
    });
    const beta = await config({ host: 'panel.beta.test' });
    expect(beta.themeConfig).toMatchObject({
      logo: 'https://cdn.beta.test/logo.svg',
      logo_mini: 'https://cdn.beta.test/mini.svg',
    });
    expect((await config({ host: 'unknown.test' })).themeConfig.logo).toBe('/house.svg');
    for (const url of [acme.themeConfig.logo, acme.themeConfig.logo_mini]) {
      const image = await t.app.inject({ method: 'GET', url });
      expect(image.statusCode, url).toBe(200);
      expect(image.headers['content-type']).toBe('image/svg+xml');
      expect(image.body).toContain('<svg');
    }
  });

  it('remembers a bounded number of hosts: random Host headers cannot grow the cache', async () => {
    const brands = new BrandService(t.database.db, 30_000, 50);
    for (let index = 0; index < 300; index += 1) {
      expect((await brands.resolve(`random-${index}.example`)).company).toBe('House Hosting');
    }
    expect(brands.cachedHosts).toBe(50);
    expect((await brands.resolve('panel.acme.test')).company).toBe('Acme Hosting');
    expect(brands.cachedHosts).toBe(50);
  });
});
