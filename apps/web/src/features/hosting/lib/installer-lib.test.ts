// @vitest-environment node
import { APP_CATEGORIES, APP_CONFIG_PREFIX } from '@panel247/contract/installer';
import { describe, expect, it } from 'vitest';
import ca from '../../../locales/ca.json';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { buildApp, buildDatabase as db, buildInput as input, buildSite as site } from './installer-fixtures';
import {
  CATALOGUE_FILTER_DEBOUNCE_MS,
  CONFIG_PREFIX,
  catalogueCategories,
  chosenDatabase,
  configErrors,
  databaseRules,
  filterApplications,
  formatAppSize,
  initialConfig,
  installAddress,
  installerAllowed,
  installFolder,
  installPayload,
  sortApplications,
  stepErrors,
  stepOfField,
  subpathError,
} from './installer-rules';
import { initialInstallerState, installerReducer } from './installer-state';

describe('installer rules', () => {
  it('keeps the zod-free prefix and the debounce equal to the spec and the contract', () => {
    expect(CONFIG_PREFIX).toBe(APP_CONFIG_PREFIX);
    expect(CATALOGUE_FILTER_DEBOUNCE_MS).toBe(300);
  });

  it('needs the FTP, database and subdomain actions, all three', () => {
    const all = { service_ftp: 'write', service_ddbb: 'write', service_subdomains: 'write' } as const;
    expect(installerAllowed(all)).toBe(true);
    expect(installerAllowed({ ...all, service_ddbb: 'read' })).toBe(false);
    expect(installerAllowed({ service_ftp: 'write', service_subdomains: 'write' })).toBe(false);
  });

  it('forces a new database when the service has none', () => {
    const rules = databaseRules({ ddbb: [], limit: 3 });
    expect(rules).toEqual({ newForced: true, newBlocked: false, impossible: false, lastId: null });
    expect(chosenDatabase(rules, [], { newDatabase: false, databaseId: null })).toEqual({
      newDatabase: true,
      databaseId: null,
    });
  });

  it('turns the new database off at the limit and preselects the last existing one', () => {
    const list = [db(4), db(9), db(6)];
    const rules = databaseRules({ ddbb: list, limit: 3 });
    expect(rules).toEqual({ newForced: false, newBlocked: true, impossible: false, lastId: 6 });
    expect(chosenDatabase(rules, list, { newDatabase: true, databaseId: null })).toEqual({
      newDatabase: false,
      databaseId: 6,
    });
    // a chosen database stays chosen; one that is gone falls back to the last
    expect(chosenDatabase(rules, list, { newDatabase: null, databaseId: 4 }).databaseId).toBe(4);
    expect(chosenDatabase(rules, list, { newDatabase: null, databaseId: 99 }).databaseId).toBe(6);
  });

  it('under the limit, with databases: the last is preselected and the new one is the user’s choice', () => {
    const list = [db(1), db(2)];
    const rules = databaseRules({ ddbb: list, limit: 5 });
    expect(rules).toEqual({ newForced: false, newBlocked: false, impossible: false, lastId: 2 });
    expect(chosenDatabase(rules, list, { newDatabase: null, databaseId: null })).toEqual({
      newDatabase: false,
      databaseId: 2,
    });
    expect(chosenDatabase(rules, list, { newDatabase: true, databaseId: null }).newDatabase).toBe(true);
  });

  it('knows when no database exists and none can be made', () => {
    expect(databaseRules({ ddbb: [], limit: 0 }).impossible).toBe(true);
  });

  it('builds the install call: prefixed fields, only the known ones, a checkbox only when ticked', () => {
    const app = buildApp();
    const config = {
      ...initialConfig(app),
      admin_email: 'me@demo.test',
      admin_password: 'S3cret!pass',
      intruder: 'x',
    };
    expect(installPayload({ siteId: 7, app, databaseId: 12, subpath: '/blog/', config })).toEqual({
      subdomainID: 7,
      applicationID: 1,
      mysqlID: 12,
      subpath: 'blog',
      cfg_site_title: 'My guestbook',
      cfg_admin_email: 'me@demo.test',
      cfg_admin_password: 'S3cret!pass',
      cfg_welcome: '',
      cfg_language: 'es',
      cfg_theme: 'classic',
    });
    const ticked = installPayload({
      siteId: 7,
      app,
      databaseId: 12,
      subpath: '',
      config: { ...config, moderate: true },
    });
    expect(ticked.cfg_moderate).toBe('1');
    expect(ticked.subpath).toBe('');
    // an application without a database sends 0 whatever was chosen
    const landing = buildApp({ id: 2, isBBDDApplication: false, installConfig: [] });
    expect(installPayload({ siteId: 7, app: landing, databaseId: 12, subpath: '', config: {} })).toEqual({
      subdomainID: 7,
      applicationID: 2,
      mysqlID: 0,
      subpath: '',
    });
  });

  it('starts from the inputs’ values, never a password, and checkboxes from `checked`', () => {
    const app = buildApp();
    expect(initialConfig(app)).toEqual({
      site_title: 'My guestbook',
      admin_email: '',
      admin_password: '',
      welcome: '',
      language: 'es',
      moderate: false,
      theme: 'classic',
    });
  });

  it('enforces required inputs (a required checkbox must be ticked; hidden ones are not asked)', () => {
    const app = buildApp();
    expect(configErrors(app, initialConfig(app))).toEqual({
      cfg_admin_email: 'validation.required',
      cfg_admin_password: 'validation.required',
    });
    expect(configErrors(app, { ...initialConfig(app), admin_email: '  ', admin_password: 'x' })).toEqual({
      cfg_admin_email: 'validation.required',
    });
    const licence = buildApp({
      installConfig: [
        {
          title: '',
          inputs: [
            input({ name: 'agree', type: 'checkbox', isRequired: true }),
            input({ name: 'h', type: 'hidden', isRequired: true }),
          ],
        },
      ],
    });
    expect(configErrors(licence, { agree: false, h: '' })).toEqual({ cfg_agree: 'validation.required' });
    expect(configErrors(licence, { agree: true, h: '' })).toEqual({});
  });

  it('checks each step before it is left', () => {
    const app = buildApp();
    const base = { siteId: null, app: null, subpath: '', database: null, config: {} };
    expect(stepErrors(0, base)).toEqual({ subdomainID: 'installer.pick_site' });
    expect(stepErrors(0, { ...base, siteId: 7 })).toEqual({});
    expect(stepErrors(1, base)).toEqual({ applicationID: 'installer.pick_app' });
    expect(stepErrors(2, { ...base, app, subpath: '../x' })).toEqual({
      subpath: 'installer.invalid_subpath',
      mysqlID: 'installer.databases_unavailable',
    });
    const rules = databaseRules({ ddbb: [], limit: 0 });
    expect(stepErrors(2, { ...base, app, database: { rules, newDatabase: false, databaseId: null } })).toEqual({
      mysqlID: 'installer.database_impossible',
    });
    const landing = buildApp({ isBBDDApplication: false });
    expect(stepErrors(2, { ...base, app: landing, subpath: 'web/app' })).toEqual({});
    expect(stepErrors(3, { ...base, app, config: initialConfig(app) })).toHaveProperty('cfg_admin_email');
  });

  it('takes a subpath under the site’s folder: empty is the folder itself, no escape', () => {
    expect(subpathError('')).toBeNull();
    expect(subpathError('/')).toBeNull();
    expect(subpathError('blog/v2/')).toBeNull();
    expect(subpathError('..')).toBe('installer.invalid_subpath');
    expect(subpathError('a/../../etc')).toBe('installer.invalid_subpath');
    expect(subpathError('we b')).toBe('installer.invalid_subpath');
    expect(installFolder(site(), '/guest/')).toBe('/blog/guest');
    expect(installFolder(site({ directorio: '' }), '')).toBe('/');
    expect(installAddress(site(), 'guest')).toBe('http://blog.demo.test/guest/');
    expect(installAddress(site({ subdominio: '', ssl: { ...site().ssl, enabled: true } }), '')).toBe(
      'https://demo.test/',
    );
  });

  it('places the server’s field errors on the step that shows them, or nowhere', () => {
    const app = buildApp();
    expect(stepOfField('subdomainID', app, 0)).toBe(0);
    expect(stepOfField('subdomainID', app, 1)).toBeNull();
    expect(stepOfField('applicationID', app, 1)).toBe(1);
    expect(stepOfField('subpath', app, 1)).toBe(2);
    expect(stepOfField('mysqlID', app, 1)).toBe(2);
    expect(stepOfField('cfg_admin_email', app, 1)).toBe(3);
    expect(stepOfField('cfg_theme', app, 1)).toBeNull();
    expect(stepOfField('cfg_unknown', app, 1)).toBeNull();
    expect(stepOfField('other', app, 1)).toBeNull();
  });

  it('lists the catalogue featured first, filters by text and category, sizes in MB with 2 decimals', () => {
    const apps = [
      buildApp({ id: 1, fullName: 'Zeta wiki', softName: 'zeta', category: 'wikis', description: 'Docs' }),
      buildApp({ id: 2, fullName: 'Alpha shop', category: 'ecommerce' }),
      buildApp({ id: 3, fullName: 'Guestbook', featured: true }),
    ];
    const sorted = sortApplications(apps);
    expect(sorted.map((app) => app.id)).toEqual([3, 2, 1]);
    expect(filterApplications(sorted, 'DOCS', '').map((app) => app.id)).toEqual([1]);
    expect(filterApplications(sorted, '', 'ecommerce').map((app) => app.id)).toEqual([2]);
    expect(filterApplications(sorted, 'guest', 'wikis')).toEqual([]);
    expect(catalogueCategories(apps)).toEqual(['wikis', 'ecommerce', 'guestbooks']);
    expect(formatAppSize(1_572_864, 'es')).toBe('1,50 MB');
    expect(formatAppSize(52_429, 'en')).toBe('0.05 MB');
    expect(formatAppSize(0, 'es')).toBe('0,00 MB');
  });

  it('has a name for every category in the three languages', () => {
    for (const tree of [es, en, ca]) {
      const names = (tree.installer as { categories: Record<string, string> }).categories;
      expect(Object.keys(names).sort()).toEqual([...APP_CATEGORIES].sort());
    }
  });
});

describe('installer steps', () => {
  const app = buildApp();

  it('starts at step 0 without a site, and at step 1 with the row’s site fixed', () => {
    expect(initialInstallerState(null)).toMatchObject({ firstStep: 0, step: 0, siteId: null });
    expect(initialInstallerState(7)).toMatchObject({ firstStep: 1, step: 1, siteId: 7 });
  });

  it('goes one step back, never before the first step', () => {
    let state = initialInstallerState(7);
    state = installerReducer(state, { type: 'back' });
    expect(state.step).toBe(1);
    state = installerReducer(installerReducer(state, { type: 'next' }), { type: 'next' });
    expect(state.step).toBe(3);
    expect(installerReducer(state, { type: 'next' }).step).toBe(3);
    state = installerReducer(state, { type: 'back' });
    expect(state.step).toBe(2);
  });

  it('gives another application its own defaults, and keeps the answers when the same one is picked again', () => {
    let state = installerReducer(initialInstallerState(7), { type: 'app', app });
    state = installerReducer(state, { type: 'config', name: 'admin_email', value: 'me@demo.test' });
    expect(installerReducer(state, { type: 'app', app }).config.admin_email).toBe('me@demo.test');
    const other = buildApp({ id: 2, installConfig: [{ title: '', inputs: [input({ name: 'title' })] }] });
    expect(installerReducer(state, { type: 'app', app: other }).config).toEqual({ title: '' });
  });

  it('clears a field’s error when it changes, and goes back to the step of a server error', () => {
    let state = installerReducer(initialInstallerState(null), { type: 'app', app });
    state = { ...state, step: 3 };
    state = installerReducer(state, {
      type: 'errors',
      errors: { subpath: 'not empty', cfg_admin_email: 'bad' },
      step: 2,
    });
    expect(state.step).toBe(2);
    state = installerReducer(state, { type: 'subpath', value: 'other' });
    expect(state.errors).toEqual({ cfg_admin_email: 'bad' });
    state = installerReducer(state, { type: 'config', name: 'admin_email', value: 'ok@demo.test' });
    expect(state.errors).toEqual({});
    // never before the first step of a row's installer
    const fromRow = installerReducer({ ...initialInstallerState(7), step: 3 }, { type: 'errors', errors: {}, step: 0 });
    expect(fromRow.step).toBe(3);
  });

  it('uses the database made for a failed install on the retry instead of making another', () => {
    const state = installerReducer(installerReducer(initialInstallerState(7), { type: 'newDatabase', on: true }), {
      type: 'databaseCreated',
      id: 31,
    });
    expect(state).toMatchObject({ newDatabase: false, databaseId: 31 });
  });
});
