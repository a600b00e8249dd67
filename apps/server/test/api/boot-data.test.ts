import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import type { UserInfoData } from '@panel247/contract/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInAccount, signedInAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

interface Boot {
  language: string;
  config?: { company: string; language: string };
  user?: UserInfoData;
  permissions?: PermissionListData;
  set?: { id: number; data: PermissionSetData };
}

/**
 * A signed-in page carries the boot's first answers (apps/server/src/http/boot-data.ts): the same
 * the browser's own calls would get with that page's cookie, and nothing of anyone else's.
 */
describe.each(DATABASE_KINDS)('the page’s boot data (%s)', (kind) => {
  let t: TestApp;
  let ana: SignedInAccount;
  let luis: SignedInAccount;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'p247-boot-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html lang="es"><head><title>Panel247</title></head><body><div id="root"></div><!--panel247:shell--></body></html>',
    );
    t = await buildTestApp(kind, { config: { webDist: dist } });
    ana = await signedInAccount(t, `ana-${kind}.test`);
    luis = await signedInAccount(t, `luis-${kind}.test`);
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const bootOf = (html: string): Boot | null => {
    const json = /<script type="application\/json" id="panel247-boot">([^<]*)<\/script>/.exec(html)?.[1];
    return json === undefined ? null : (JSON.parse(json) as Boot);
  };

  it('carries the configuration, the user, the permission list and the item’s permission set', async () => {
    const answer = await page(`/admin/${ana.id}/domain/`, ana.cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.headers.vary).toMatch(/Cookie/);
    const boot = bootOf(answer.body);
    expect(boot?.language).toBe('es');
    expect(boot?.config?.language).toBe('es');
    expect(boot?.user).toMatchObject({ user: ana.username, domainName: ana.domainName });
    expect(boot?.permissions?.permissions.map((entry) => entry.id)).toEqual([ana.id]);
    expect(boot?.set).toMatchObject({ id: ana.id, data: { id: ana.id, reference: ana.domainName } });
    // what the page carries is what the calls answer
    const own = await t.call<PermissionSetData>('POST', `permission/${ana.id}/`, {}, { cookie: ana.cookie });
    expect(boot?.set?.data).toEqual(own.body.data);
  });

  it('carries each session’s own answers only, and no item set for an id that is not the user’s', async () => {
    const boot = bootOf((await page(`/admin/${ana.id}/domain/`, luis.cookie)).body);
    expect(boot?.user).toMatchObject({ user: luis.username, domainName: luis.domainName });
    expect(boot?.permissions?.permissions.map((entry) => entry.id)).toEqual([luis.id]);
    // the view asks for it and gets its 404: the not-found page, as without boot data
    expect(boot?.set).toBeUndefined();
    expect(JSON.stringify(boot)).not.toContain(ana.domainName);
  });

  it('carries no session’s answers without a cookie or with one that opens nothing', async () => {
    expect(bootOf((await page(`/admin/${ana.id}/domain/`)).body)).toBeNull();
    const gone = bootOf((await page(`/admin/${ana.id}/domain/`, 'p247_sid=not-a-session')).body);
    expect(gone?.user).toBeUndefined();
    expect(gone?.permissions).toBeUndefined();
    expect(gone?.set).toBeUndefined();
  });

  it('carries the login page’s configuration, as its own call answers it, and no session’s answers', async () => {
    const answer = await page('/login/?lang=en', undefined, { host: 'panel.example.test' });
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    const boot = bootOf(answer.body);
    const config = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}config/get/`,
      query: { language: 'en' },
      headers: { host: 'panel.example.test' },
    });
    expect(boot).toEqual({ language: 'en', config: config.json().data });
    // with a cookie, the page is the app's: a session's boot data (none for one that opens nothing)
    const gone = bootOf((await page('/login/', 'p247_sid=not-a-session')).body);
    expect(gone?.user).toBeUndefined();
  });

  it('is in the language the page opens in (forced by ?lang= too), as the app’s own calls would be', async () => {
    const english = bootOf((await page('/admin/', ana.cookie, { 'accept-language': 'en-GB,en;q=0.9' })).body);
    expect(english?.language).toBe('en');
    const config = await t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}config/get/`,
      headers: { cookie: ana.cookie, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(english?.config).toEqual(config.json().data);
    const catalan = bootOf((await page('/admin/?lang=ca', ana.cookie, { 'accept-language': 'en' })).body);
    expect(catalan?.language).toBe('ca');
    expect(catalan?.config?.language).toBe('ca');
  });
});
