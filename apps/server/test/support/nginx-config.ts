import { webIdentity } from '../../../../scripts/daemons/nginx-php.ts';
import type { WebServers } from '../../../../scripts/daemons/web.ts';

/**
 * The panel's settings for the test nginx and PHP-FPM of `startWebServers` (the nginx driver, its
 * folders and commands, the pools' user), with the service homes under `homes`. As root, the pools
 * and homes belong to the web user, as on a real server.
 */
export function nginxPanelConfig(servers: WebServers, homes: string): Record<string, unknown> {
  const options = servers.driverOptions;
  const web = webIdentity();
  return {
    'web.driver': 'nginx',
    'web.configDir': options.configDir,
    'web.logDir': options.logDir,
    'web.templatesDir': options.templatesDir,
    'web.httpListen': options.httpListen,
    'web.httpsListen': options.httpsListen,
    'web.phpSockets': options.phpSockets,
    'web.phpBinaries': { '8.2': options.php['8.2']?.binary },
    'web.phpConfigs': { '8.2': options.php['8.2']?.config },
    'web.phpPidFiles': { '8.2': options.php['8.2']?.pidFile },
    ...(web.asRoot
      ? { 'web.phpUser': web.user, 'web.phpGroup': web.group, 'web.nginxUser': web.user }
      : { 'web.phpUser': options.phpUser, 'web.phpGroup': options.phpGroup, 'web.nginxUser': options.nginxUser }),
    'web.nginxBinary': options.nginxBinary,
    'web.nginxPrefix': options.nginxPrefix,
    'web.nginxConf': options.nginxConf,
    'web.nginxErrorLog': options.nginxErrorLog,
    'web.nginxPidFile': options.nginxPidFile,
    'web.acmeChallengeDir': options.acmeChallengeDir,
    'hosting.root': homes,
    ...(web.asRoot ? { 'hosting.uid': web.uid, 'hosting.gid': web.gid } : {}),
  };
}
