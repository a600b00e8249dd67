import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import { repoPath } from '../../paths.ts';
import { EmbeddedWebDriver } from './embedded.driver.ts';
import { NginxWebDriver, type PhpFpmMaster } from './nginx.driver.ts';
import type { WebDriver } from './web.driver.ts';

/** The repository's deploy/nginx: the templates the operator kit ships. */
export const DEFAULT_WEB_TEMPLATES = repoPath('deploy/nginx');

/** The PHP-FPM master of every version with a socket folder: Debian's paths unless configured otherwise. */
export function phpMasters(web: AppConfig['web']): Record<string, PhpFpmMaster> {
  const php: Record<string, PhpFpmMaster> = {};
  for (const version of Object.keys(web.phpSockets)) {
    php[version] = {
      binary: web.phpBinaries[version] ?? `/usr/sbin/php-fpm${version}`,
      config: web.phpConfigs[version] ?? `/etc/php/${version}/fpm/php-fpm.conf`,
      pidFile: web.phpPidFiles[version] ?? `/run/php/php${version}-fpm.pid`,
    };
    const reload = web.phpReloadCommands[version]?.split(/\s+/).filter(Boolean);
    if (reload?.length) php[version].reloadCommand = reload;
  }
  return php;
}

export function createWebDriver(config: AppConfig): WebDriver {
  const web = config.web;
  const configDir = web.configDir ?? path.join(config.dataDir, 'web');
  const common = {
    configDir,
    templatesDir: web.templatesDir ?? DEFAULT_WEB_TEMPLATES,
    logDir: web.logDir ?? path.join(configDir, 'logs'),
    httpListen: web.httpListen,
    httpsListen: web.httpsListen,
    phpSockets: web.phpSockets,
    phpUser: web.phpUser,
    phpGroup: web.phpGroup,
    nginxUser: web.nginxUser,
    acmeChallengeDir: web.acmeChallengeDir as string,
    logOwner: { uid: config.hosting.uid, gid: config.hosting.gid },
  };
  if (web.driver === 'nginx') {
    const php = phpMasters(web);
    return new NginxWebDriver({
      ...common,
      nginxBinary: web.nginxBinary,
      nginxPrefix: web.nginxPrefix,
      nginxConf: web.nginxConf,
      nginxErrorLog: web.nginxErrorLog,
      nginxPidFile: web.nginxPidFile,
      php,
    });
  }
  return new EmbeddedWebDriver(common);
}
