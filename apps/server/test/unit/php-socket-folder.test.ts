import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withNginxTestPid, withPhpTestErrorLog } from '../../src/drivers/web/nginx.driver.ts';
import {
  ensurePhpSocketFolder,
  PHP_SOCKET_FOLDER_MODE,
  phpSocketFolderProblem,
  poolSocketName,
} from '../../src/drivers/web/php-socket-folder.ts';

const WWW_DATA = { uid: 33, gid: 33 };
const mode = (folder: string) => statSync(folder).mode & 0o7777;

describe('the PHP-FPM socket folder', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  it('is made 0755 whatever the umask, with the parents it makes, and an existing 0750 one is set right', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-php-run-'));
    chmodSync(root, 0o755);
    const folder = path.join(root, 'php', 'panel247-8.2');
    const before = process.umask(0o027);
    try {
      await ensurePhpSocketFolder(folder);
      expect(mode(path.join(root, 'php'))).toBe(PHP_SOCKET_FOLDER_MODE);
      expect(mode(folder)).toBe(0o755);
      chmodSync(folder, 0o750);
      await ensurePhpSocketFolder(folder);
      expect(mode(folder)).toBe(0o755);
    } finally {
      process.umask(before);
    }
  });

  it('an existing parent keeps its own mode', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-php-run-'));
    mkdirSync(path.join(root, 'php'), { mode: 0o711 });
    chmodSync(path.join(root, 'php'), 0o711);
    await ensurePhpSocketFolder(path.join(root, 'php', 'panel247-8.2'));
    expect(mode(path.join(root, 'php'))).toBe(0o711);
  });

  it('names what keeps nginx’s workers from a pool’s socket', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-php-run-'));
    chmodSync(root, 0o755);
    const folder = path.join(root, 'panel247-8.2');
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toMatch(/is missing/);
    await ensurePhpSocketFolder(folder);
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toBeNull();
    chmodSync(folder, 0o750);
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toMatch(/cannot be searched by uid 33: make it 0755/);
    chmodSync(folder, 0o755);
    const listen = async (name: string) => {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(path.join(folder, name), resolve));
      return path.join(folder, name);
    };
    // the master's idle pool is root's alone: nginx never opens it
    chmodSync(await listen('idle.sock'), 0o600);
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toBeNull();
    const socket = await listen(poolSocketName(1));
    chmodSync(socket, 0o600);
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toMatch(/panel247-1\.sock cannot be opened by uid 33/);
    chmodSync(socket, 0o666);
    expect(await phpSocketFolderProblem(folder, WWW_DATA)).toBeNull();
  });
});

describe('the configuration tests write only in the check folder', () => {
  it('nginx -t gets its own pid file', () => {
    expect(withNginxTestPid('user www-data;\npid /run/nginx.pid;\nevents {}\n', '/c/nginx-test.pid')).toBe(
      'user www-data;\npid /c/nginx-test.pid;\nevents {}\n',
    );
    expect(withNginxTestPid('events {}\n', '/c/nginx-test.pid')).toBe('pid /c/nginx-test.pid;\nevents {}\n');
  });

  it('php-fpm -t gets its own error log; a pool’s php_admin_value stays', () => {
    const main =
      '[global]\npid = /run/php/x.pid\nerror_log = /var/log/php8.2-fpm.log\n\n[p]\nphp_admin_value[error_log] = /l\n';
    expect(withPhpTestErrorLog(main, '/c/php.log')).toBe(
      '[global]\npid = /run/php/x.pid\nerror_log = /c/php.log\n\n[p]\nphp_admin_value[error_log] = /l\n',
    );
    expect(withPhpTestErrorLog('[global]\npid = /x\n', '/c/php.log')).toBe(
      '[global]\nerror_log = /c/php.log\npid = /x\n',
    );
  });
});
