import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { NginxWebOptions } from '../../apps/server/src/drivers/web/nginx.driver.ts';
import { type Placement, type RunningDaemon, temporaryPlacement, waitForPort } from './daemon-harness.ts';
import { fillDeployTemplate } from './deploy-template.ts';
import { nginxBinary, phpFpmBinary, readOr, startNginx, startPhpFpm, waitForSocket, webIdentity } from './nginx-php.ts';

const KIT = path.join(import.meta.dirname, '../../deploy/nginx');
const PHP_VERSION = '8.2';

export interface WebServers {
  /** The run's folder (mode 0755): service homes can live in it. */
  dir: string;
  httpPort: number;
  httpsPort: number;
  /** What the panel's nginx driver needs to drive these servers. */
  driverOptions: NginxWebOptions;
  logs(): string;
  /** The processes it started, by name (for a status). */
  processes(): Record<string, number | undefined>;
  stop(): Promise<void>;
}

/**
 * nginx and PHP-FPM 8.2 from the deploy/nginx kit on loopback ports, in a folder of their own:
 * nginx.conf and php-fpm.conf include the live folder the web driver writes into, exactly as an
 * operator's do. Nothing under /etc is touched (mime.types is only read).
 */
export async function startWebServers(
  placement: Placement = temporaryPlacement,
  /** The address nginx listens on: loopback, or a server's own in its network namespace. */
  address = '127.0.0.1',
): Promise<WebServers> {
  const nginx = nginxBinary();
  const phpFpm = phpFpmBinary();
  const web = webIdentity();
  const user = web.user || 'nobody';
  const group = web.group || 'nogroup';
  const dir = await placement.folder('web');
  chmodSync(dir, 0o755);
  const configDir = path.join(dir, 'web');
  const liveDir = path.join(configDir, 'live');
  const runDir = path.join(dir, 'run');
  const tempDir = path.join(dir, 'nginx-temp');
  // a kept folder's sockets are the last run's: waiting for them must mean this run's
  if (!placement.temporary) rmSync(runDir, { recursive: true, force: true });
  // PHP-FPM refuses an include pattern whose folder does not exist yet.
  for (const folder of [liveDir, runDir, tempDir]) mkdirSync(folder, { recursive: true, mode: 0o755 });
  const [httpPort, httpsPort] = [await placement.port('nginx.http'), await placement.port('nginx.https')];
  const nginxConf = path.join(dir, 'nginx.conf');
  const nginxErrorLog = path.join(dir, 'nginx-error.log');
  const nginxPidFile = path.join(dir, 'nginx.pid');
  const fpmConf = path.join(dir, `php-fpm-${PHP_VERSION}.conf`);
  const fpmPid = path.join(dir, 'php-fpm.pid');
  const idleSocket = path.join(runDir, 'idle.sock');

  writeFileSync(
    nginxConf,
    fillDeployTemplate('nginx/nginx.conf.template', {
      USER: user,
      GROUP: group,
      PID_FILE: nginxPidFile,
      ERROR_LOG: nginxErrorLog,
      ACCESS_LOG: path.join(dir, 'nginx-access.log'),
      MIME_TYPES: '/etc/nginx/mime.types',
      TEMP_DIR: tempDir,
      HTTP_LISTEN: `${address}:${httpPort}`,
      HTTPS_LISTEN: `${address}:${httpsPort}`,
      LIVE_DIR: liveDir,
    }),
  );
  writeFileSync(
    fpmConf,
    fillDeployTemplate('nginx/php-fpm.conf.template', {
      PID_FILE: fpmPid,
      ERROR_LOG: path.join(dir, 'php-fpm.log'),
      DAEMONIZE: 'no',
      IDLE_SOCKET: idleSocket,
      USER: user,
      GROUP: group,
      LIVE_DIR: liveDir,
      VERSION: PHP_VERSION,
    }),
  );

  const fpm: RunningDaemon = startPhpFpm(fpmConf);
  const server: RunningDaemon = startNginx(dir, nginxConf, nginxErrorLog);
  const logs = () =>
    [fpm.output(), server.output(), readOr(path.join(dir, 'php-fpm.log')), readOr(nginxErrorLog)].join('\n');
  const stop = async () => {
    await server.stop();
    await fpm.stop();
    if (placement.temporary) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(httpPort, undefined, address);
    await waitForPort(httpsPort, undefined, address);
    await waitForSocket(idleSocket, fpm);
  } catch (error) {
    await stop();
    throw new Error(`nginx/php-fpm did not start: ${(error as Error).message}\n${logs()}`);
  }
  return {
    dir,
    httpPort,
    httpsPort,
    driverOptions: {
      configDir,
      templatesDir: KIT,
      logDir: path.join(dir, 'logs'),
      httpListen: `${address}:${httpPort}`,
      httpsListen: `${address}:${httpsPort}`,
      phpSockets: { [PHP_VERSION]: runDir },
      phpUser: user,
      phpGroup: group,
      nginxUser: user,
      acmeChallengeDir: path.join(dir, 'acme-challenges'),
      ...(web.asRoot ? { logOwner: { uid: web.uid, gid: web.gid } } : {}),
      nginxBinary: nginx,
      nginxPrefix: `${dir}/`,
      nginxConf,
      nginxErrorLog,
      nginxPidFile,
      php: { [PHP_VERSION]: { binary: phpFpm, config: fpmConf, pidFile: fpmPid } },
    },
    logs,
    processes: () => ({ nginx: server.process.pid, 'php-fpm': fpm.process.pid }),
    stop,
  };
}
