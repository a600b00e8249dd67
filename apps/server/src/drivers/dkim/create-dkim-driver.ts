import type { AppConfig } from '../../config.ts';
import type { DkimDriver } from './dkim.driver.ts';
import { EmbeddedDkimDriver } from './embedded.driver.ts';
import { OpenDkimDriver } from './opendkim.driver.ts';

export function createDkimDriver(config: AppConfig): DkimDriver {
  const mail = config.mail;
  if (mail.dkimDriver !== 'opendkim') return new EmbeddedDkimDriver();
  const owner =
    mail.opendkimUid !== undefined ? { uid: mail.opendkimUid, gid: mail.opendkimGid ?? mail.opendkimUid } : undefined;
  return new OpenDkimDriver({
    dir: mail.opendkimDir as string,
    pidFile: mail.opendkimPidFile ?? `${mail.opendkimDir}/opendkim.pid`,
    owner,
  });
}
