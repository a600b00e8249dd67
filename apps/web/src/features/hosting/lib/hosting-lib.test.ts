// @vitest-environment node
import type { HostingService, Subdomain } from '@panel247/contract/hosting';
import { REDIRECT_TYPES } from '@panel247/contract/hosting';
import { describe, expect, it } from 'vitest';
import es from '../../../locales/es.json';
import { databaseHost, phpChoices } from './hosting-format';
import { builderChoices, hostChoices, siteHost, sortSites, sslState } from './hosting-rows';
import {
  REDIRECT_TYPE_LIST,
  redirectionValues,
  toCreatePayload,
  toSavePayload,
  validateRedirection,
} from './redirection-form';
import * as siteForm from './site-form';

function site(overrides: Omit<Partial<Subdomain>, 'ssl'> & { ssl?: Partial<Subdomain['ssl']> } = {}): Subdomain {
  const { ssl, ...rest } = overrides;
  return {
    id: 1,
    subdominio: '',
    referencePunycode: 'demo.test',
    directorio: '',
    eliminable: false,
    ...rest,
    ssl: { enabled: false, cert: { cert: '', key: '', ca: '' }, info: null, ...ssl },
  };
}

const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----';

describe('hosting rows', () => {
  const sites = [
    site({ id: 3, subdominio: 'shop', directorio: 'shop' }),
    site({ id: 1 }),
    site({ id: 2, subdominio: 'blog', directorio: 'blog' }),
  ];

  it('names hosts and puts the main domain first', () => {
    expect(siteHost('', 'demo.test')).toBe('demo.test');
    expect(siteHost('blog', 'demo.test')).toBe('blog.demo.test');
    expect(sortSites(sites).map((item) => item.id)).toEqual([1, 2, 3]);
  });

  it('offers the hosts of a redirection and the builder sites, the main domain as "" and "*"', () => {
    expect(hostChoices('demo.test', sites)).toEqual([
      { value: '', label: 'demo.test' },
      { value: 'blog', label: 'blog.demo.test' },
      { value: 'shop', label: 'shop.demo.test' },
    ]);
    expect(builderChoices('demo.test', sites).map((choice) => choice.value)).toEqual(['*', 'blog', 'shop']);
    expect(hostChoices('demo.test', [])).toEqual([{ value: '', label: 'demo.test' }]);
  });

  it('tells the SSL state from the switch and the certificate dates', () => {
    const info = { names: ['a'], issuer: 'x', validFrom: 100, validTo: 200, fingerprint: 'f', keyInstalled: true };
    expect(sslState(site(), 150)).toBe('off');
    expect(sslState(site({ ssl: { enabled: true, info } }), 150)).toBe('active');
    expect(sslState(site({ ssl: { enabled: true, info } }), 250)).toBe('expired');
    expect(sslState(site({ ssl: { enabled: true, info } }), 50)).toBe('not_yet_valid');
  });
});

describe('service format', () => {
  const service = { phpversion: 'default', phpVersions: ['8.2', '8.3'], defaultPHPVersion: '8.2' } as HostingService;

  it('offers the default and each version the server runs, keeping a stored version it no longer runs', () => {
    expect(phpChoices(service, 'Default').map((choice) => choice.value)).toEqual(['default', '8.2', '8.3']);
    expect(phpChoices({ ...service, phpversion: '7.4' }, 'Default').map((choice) => choice.value)).toEqual([
      'default',
      '8.2',
      '8.3',
      '7.4',
    ]);
    expect(databaseHost('demo.test')).toBe('bbdd.demo.test');
  });
});

describe('redirection form', () => {
  it('keeps the same types as the contract', () => {
    expect([...REDIRECT_TYPE_LIST]).toEqual([...REDIRECT_TYPES]);
  });

  it('sends the frame texts only with a frame, and the path without its slashes', () => {
    const values = {
      ...redirectionValues(null),
      recurso: '/offers/',
      urlRedir: ' https://example.com/x ',
      iframeTitle: 'Title',
    };
    expect(toCreatePayload(values)).toEqual({
      subDomain: '',
      recurso: 'offers',
      urlRedir: 'https://example.com/x',
      redirType: '301',
      iframeTitle: '',
      iframeDescription: '',
      iframeKeywords: '',
    });
    expect(toSavePayload({ ...values, redirType: 'frame' }).iframeTitle).toBe('Title');
  });

  it('checks the URL and, when creating, the path', () => {
    const values = redirectionValues(null);
    expect(validateRedirection(values, true)).toEqual({ urlRedir: 'validation.required' });
    expect(validateRedirection({ ...values, urlRedir: 'ftp://x' }, true).urlRedir).toBe('hosting.invalid_url');
    expect(validateRedirection({ ...values, urlRedir: 'https://x.test/a b' }, true).urlRedir).toBe(
      'hosting.invalid_url',
    );
    expect(validateRedirection({ ...values, urlRedir: 'https://x.test/;rm' }, true).urlRedir).toBe(
      'hosting.invalid_url',
    );
    expect(validateRedirection({ ...values, urlRedir: 'https://x.test/', recurso: '../x' }, true)).toEqual({
      recurso: 'hosting.invalid_path',
    });
    expect(validateRedirection({ ...values, urlRedir: 'https://x.test/', recurso: '../x' }, false)).toEqual({});
  });
});

describe('site form', () => {
  it('prefills an existing site without its key, and a new one with a given subdomain', () => {
    const existing = site({
      subdominio: 'blog',
      directorio: 'blog',
      ssl: { enabled: true, cert: { cert: CERT, key: '', ca: '' } },
    });
    expect(siteForm.siteValues(existing)).toEqual({
      subDomain: 'blog',
      folder: '/blog',
      sslMode: 'manual',
      challenge: 'http-01',
      wildcard: false,
      cert: CERT,
      certkey: '',
      certchain: '',
    });
    expect(siteForm.siteValues(null, 'shop')).toMatchObject({ subDomain: 'shop', folder: '/shop' });
  });

  it('keeps the installed certificate when nothing of it changed, and sends a new one whole', () => {
    const existing = site({ id: 5, ssl: { enabled: true, cert: { cert: CERT, key: '', ca: '' } } });
    const values = siteForm.siteValues(existing);
    expect(siteForm.toSavePayload(values, existing)).toEqual({
      folder: '',
      SSLActive: '1',
      cert: '',
      certkey: '',
      certchain: '',
    });
    expect(siteForm.validateSite(values, existing)).toEqual({});
    const changed = { ...values, cert: `${CERT}\n`, certkey: KEY };
    expect(siteForm.toSavePayload({ ...changed, cert: CERT.replace('MIIB', 'MIIC') }, existing).cert).toContain('MIIC');
    // a new certificate needs its key
    expect(siteForm.validateSite({ ...values, cert: CERT.replace('MIIB', 'MIIC') }, existing)).toEqual({
      certkey: 'validation.required',
    });
    // SSL off sends no certificate
    expect(siteForm.toSavePayload({ ...changed, sslMode: 'off' }, existing)).toMatchObject({
      SSLActive: '0',
      cert: '',
    });
  });

  it('automatic keeps the SSL as the order left it, and orders only when on, changed or failed', () => {
    const existing = site({ id: 5, ssl: { enabled: true, cert: { cert: CERT, key: '', ca: '' } } });
    const cert = { challenge: 'http-01', wildcard: false, state: 'installed', error: '', expiresAt: 9 } as const;
    const values = siteForm.siteValues(existing, '', cert);
    expect(values.sslMode).toBe('auto');
    expect(siteForm.toSavePayload(values, existing)).toMatchObject({ SSLActive: '1', cert: '' });
    expect(siteForm.toSavePayload(values, site({ id: 6 })).SSLActive).toBe('0');
    expect(siteForm.validateSite({ ...values, cert: 'junk' }, existing)).toEqual({});
    expect(siteForm.wantsOrder(values, cert)).toBe(false);
    expect(siteForm.wantsOrder(values, { ...cert, state: 'failed' })).toBe(true);
    expect(siteForm.wantsOrder({ ...values, challenge: 'dns-01' }, cert)).toBe(true);
    expect(siteForm.wantsOrder({ ...values, sslMode: 'manual' }, null)).toBe(false);
    expect(siteForm.wantsOrder({ ...values, sslMode: 'auto' }, null)).toBe(true);
    // a wildcard goes only with the DNS check
    expect(siteForm.wildcardOf({ ...values, wildcard: true })).toBe(false);
    expect(siteForm.wildcardOf({ ...values, challenge: 'dns-01', wildcard: true })).toBe(true);
  });

  it('checks subdomain, folder and PEM blocks before sending', () => {
    const values = siteForm.siteValues(null);
    expect(siteForm.validateSite({ ...values, subDomain: '' }, null).subDomain).toBe('validation.required');
    expect(siteForm.validateSite({ ...values, subDomain: 'bad_label' }, null).subDomain).toBe(
      'hosting.invalid_subdomain',
    );
    expect(siteForm.validateSite({ ...values, subDomain: 'ok', folder: '../../etc' }, null)).toEqual({
      folder: 'hosting.invalid_folder',
    });
    expect(siteForm.validateSite({ ...values, subDomain: 'ok', sslMode: 'manual' }, null)).toEqual({
      cert: 'validation.required',
    });
    expect(
      siteForm.validateSite(
        { ...values, subDomain: 'ok', sslMode: 'manual', cert: 'junk', certkey: KEY, certchain: 'junk' },
        null,
      ),
    ).toEqual({ cert: 'hosting.invalid_cert', certchain: 'hosting.invalid_chain' });
    expect(siteForm.toCreatePayload({ ...values, subDomain: ' Shop ', folder: '/shop/' })).toMatchObject({
      subDomain: 'shop',
      folder: 'shop',
      SSLActive: '0',
    });
  });
});

describe('hosting keys built at run time', () => {
  it('exist in es', () => {
    const section = (es as unknown as { hosting: Record<string, string> }).hosting;
    for (const type of REDIRECT_TYPE_LIST) expect(section[`redir_type_${type}`], type).toBeTruthy();
    for (const state of ['off', 'active', 'expired', 'not_yet_valid'])
      expect(section[`ssl_${state}`], state).toBeTruthy();
  });
});
