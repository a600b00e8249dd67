import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { configQueryKey } from '../api/get-config';
import { userInfoQueryKey } from '../api/get-user-info';
import { permissionListQueryKey, permissionSetQueryKey } from '../api/permission-queries';
import { getBasePath, setBasePath } from './api-client';
import { seedBootData } from './boot-data';

function pageCarries(boot: unknown): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'panel247-boot';
  script.textContent = typeof boot === 'string' ? boot : JSON.stringify(boot);
  document.body.append(script);
}

describe('the page’s boot data', () => {
  afterEach(() => {
    document.getElementById('panel247-boot')?.remove();
  });

  it('becomes the boot calls’ cached answers, once', () => {
    const client = new QueryClient();
    const user = { user: 'admin', domainName: 'demo.test' };
    pageCarries({
      language: 'es',
      config: { company: 'Acme' },
      user,
      permissions: { permissions: [] },
      set: { id: 7, data: { id: 7 } },
    });
    expect(seedBootData(client, 'es')).toEqual({ signedIn: true });
    expect(client.getQueryData(configQueryKey('es'))).toEqual({ company: 'Acme' });
    expect(client.getQueryData(userInfoQueryKey)).toEqual(user);
    expect(client.getQueryData(permissionListQueryKey)).toEqual({ permissions: [] });
    expect(client.getQueryData(permissionSetQueryKey(7))).toEqual({ id: 7 });
    expect(document.getElementById('panel247-boot')).toBeNull();
  });

  it('leaves a configuration in another language, and without a user everything of a user, to be asked', () => {
    const client = new QueryClient();
    pageCarries({ language: 'en', config: { company: 'Acme' }, permissions: { permissions: [] } });
    expect(seedBootData(client, 'es')).toEqual({ signedIn: false });
    expect(client.getQueryData(configQueryKey('es'))).toBeUndefined();
    expect(client.getQueryData(configQueryKey('en'))).toBeUndefined();
    expect(client.getQueryData(permissionListQueryKey)).toBeUndefined();
  });

  it('ignores a block it cannot read', () => {
    const client = new QueryClient();
    pageCarries('{not json');
    expect(seedBootData(client, 'es')).toBeNull();
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it('sets the API base path of the configuration it carries, so the boot’s first calls go there', () => {
    const before = getBasePath();
    try {
      pageCarries({ language: 'es', config: { company: 'Acme', basePath: '/panel-api/' } });
      seedBootData(new QueryClient(), 'es');
      expect(getBasePath()).toBe('/panel-api/');
    } finally {
      setBasePath(before);
    }
  });
});
