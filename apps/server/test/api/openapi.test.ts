import * as contractRoutes from '@panel247/contract/routes';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: unknown }>>;
}

/** Every path the contract names (its constants and path builders), with `{}` for each parameter. */
function contractPaths(): string[] {
  const paths: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') paths.push(value);
    else if (typeof value === 'function') {
      const args = Array.from({ length: value.length }, () => '\u0000');
      paths.push(String(value(...args)).replaceAll('\u0000', '{}'));
    } else if (value && typeof value === 'object') for (const item of Object.values(value)) visit(item);
  };
  visit(contractRoutes);
  return paths;
}

const normalised = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    // A plain GET, as curl sends it: no cookie, no CSRF header.
    const response = await t.app.inject({ method: 'GET', url: `${t.config.basePath}openapi.json` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route of the contract', () => {
    const described = new Set(
      Object.keys(document.paths).map((path) => normalised(path.slice(t.config.basePath.length))),
    );
    const missing = contractPaths().filter((path) => !described.has(normalised(path)));
    expect(missing).toEqual([]);
    expect(contractPaths().length).toBeGreaterThan(100);
  });

  it('documents the API tokens: a session call is open to a Bearer token, its parameters come from the contract', () => {
    const records = document.paths[`${t.config.basePath}service/{id}/dns/create/`]?.post;
    expect(records?.security).toEqual([{ session: [] }, { bearer: [] }]);
    const profile = document.paths[`${t.config.basePath}service/{id}/correo/{accountId}/mobileconfig/`]?.get;
    expect(profile?.security).toEqual([{ session: [] }, { bearer: [] }]);
    // The login's own settings take the session only (a token gets 403 there), user/info/ aside.
    const create = document.paths[`${t.config.basePath}user/apitokens/create/`]?.post;
    expect(create?.security).toEqual([{ session: [] }]);
    expect(JSON.stringify(create?.requestBody)).toContain('expiresInDays');
    expect(document.paths[`${t.config.basePath}user/info/`]?.post?.security).toEqual([{ session: [] }, { bearer: [] }]);
    const login = document.paths[`${t.config.basePath}user/login/`]?.post;
    expect(login?.security).toEqual([]);
  });
});
