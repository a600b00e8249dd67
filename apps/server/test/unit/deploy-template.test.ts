import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEPLOY, fillDeployTemplate, placeholdersOf } from '../../../../scripts/daemons/deploy-template.ts';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../../..');

/** What the web driver fills for each service, not the operator (the guide says so). */
const FILLED_BY_THE_PANEL = new Set([
  'nginx/server.conf.template',
  'nginx/server-ssl.conf.template',
  'nginx/site.locations.template',
  'nginx/parking.locations.template',
  'nginx/php-fpm-pool.conf.template',
  'nginx/parking.html.template',
  'nginx/suspended.locations.template',
  'nginx/suspended.html.template',
  'nginx/frame.html.template',
]);

/** Every *.template under deploy/ an operator fills, as a path relative to it. */
function operatorTemplates(): string[] {
  return readdirSync(DEPLOY, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.template') && !FILLED_BY_THE_PANEL.has(file))
    .sort();
}

describe('deploy templates', () => {
  it('fills every placeholder, and refuses to leave one empty', () => {
    expect(placeholdersOf('a @ONE@ b @TWO_2@ c @ONE@ d user@example.test')).toEqual(['ONE', 'TWO_2']);
    const values = {
      INCLUDE_DIR: '/etc/powerdns/pdns.d',
      LISTEN: '0.0.0.0, ::',
      SOCKET_DIR: '/run/pdns',
      DNS_PORT: '53',
      API_PORT: '8081',
      API_KEY: 'key with $& and @X@',
    };
    const filled = fillDeployTemplate('powerdns/pdns.conf.template', values);
    expect(filled).toContain('include-dir=/etc/powerdns/pdns.d');
    // a value is inserted as it is: no replacement patterns, no second pass over what was filled
    expect(filled).toContain('api-key=key with $& and @X@');
    expect(() => fillDeployTemplate('powerdns/pdns.conf.template', { ...values, API_KEY: undefined } as never)).toThrow(
      'powerdns/pdns.conf.template: @API_KEY@ not filled',
    );
  });

  it('every placeholder an operator fills is explained in the guide’s table', () => {
    const guide = readFileSync(path.join(REPO, 'docs/OPERATIONS.md'), 'utf8');
    const start = guide.indexOf('## Template placeholders');
    const table = guide.slice(start, guide.indexOf('\n## ', start + 1));
    for (const template of operatorTemplates()) {
      const text = readFileSync(path.join(DEPLOY, template), 'utf8');
      for (const name of placeholdersOf(text)) expect(table, `${template}: @${name}@`).toContain(name);
    }
  });

  it('render-template lists a template’s placeholders, prints it filled, and fails on a hole', async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'scripts/deploy/render-template.ts', ...args], { cwd: REPO });
    const listed = await cli('deploy/proftpd/proftpd.conf.template');
    expect(listed.stdout.trim().split('\n').sort()).toEqual(
      [
        'ADDRESS',
        'BIND_TIGHT',
        'CONNECT',
        'DIR',
        'HOST_KEY_DIR',
        'NODE',
        'PASV_MAX',
        'PASV_MIN',
        'PORT',
        'SFTP_PORT',
        'SQL_BACKEND',
        'SQL_MODULE',
      ].sort(),
    );
    const filled = await cli(
      'deploy/proftpd/proftpd.conf.template',
      'DIR=/var/log/proftpd',
      'ADDRESS=127.0.0.1',
      'BIND_TIGHT=off',
      'PORT=21',
      'SFTP_PORT=2222',
      'HOST_KEY_DIR=/etc/proftpd',
      'PASV_MIN=49152',
      'PASV_MAX=49200',
      'SQL_MODULE=mod_sql_postgres.c',
      'SQL_BACKEND=postgres',
      'CONNECT=panel247@127.0.0.1:5432 panel247_ftp secret',
      'NODE=web-2',
    );
    expect(filled.stdout).toContain('SQLConnectInfo panel247@127.0.0.1:5432 panel247_ftp secret');
    expect(filled.stdout).toContain(`SQLUserWhereClause "node = 'web-2'"`);
    const refused = await cli('deploy/proftpd/proftpd.conf.template', 'PORT=21').catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('@CONNECT@');
    const outside = await cli('package.json').catch((error: { code: number }) => error);
    expect(outside).toMatchObject({ code: 1 });
  });
});
