import { CRON_OUTPUT_MAX_BYTES } from '@panel247/contract/cron';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { fetchCronUrl, localListen, runPhpScript } from '../../drivers/cron/cron-exec.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import { CronRunner } from './cron-runner.ts';

/** The runner a node's worker binds: PHP's CLI as the service's user, URLs asked of the server's own nginx. */
export function createCronRunner(db: Db, config: AppConfig, now: () => number): CronRunner {
  const timeoutMs = config.cron.timeoutSeconds * 1000;
  const web = { http: localListen(config.web.httpListen), https: localListen(config.web.httpsListen) };
  return new CronRunner(
    db,
    { hostingRoot: config.hosting.root as string },
    serviceFileOwner(db, config, now),
    {
      php: ({ home, script, owner }) =>
        runPhpScript({ php: config.cron.php, home, script, owner, timeoutMs, maxBytes: CRON_OUTPUT_MAX_BYTES }),
      url: (url) => fetchCronUrl(url, web, timeoutMs, CRON_OUTPUT_MAX_BYTES),
    },
    now,
  );
}
