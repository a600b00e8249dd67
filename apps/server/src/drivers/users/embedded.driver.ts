import type { FoundUser, ServiceUserDriver, SystemUser, UserState } from './users.driver.ts';

/**
 * The default: no system accounts. Every service's PHP runs as PANEL_WEB_PHP_USER, its FTP logins
 * as uid/gid 33, and the panel's file work with its own rights, as a trial or a development
 * machine wants.
 */
export class EmbeddedServiceUserDriver implements ServiceUserDriver {
  readonly kind = 'embedded' as const;

  async check(_user: SystemUser): Promise<UserState> {
    return { state: 'present' };
  }

  async ensure(_user: SystemUser): Promise<'created' | 'present'> {
    return 'present';
  }

  async remove(_user: Pick<SystemUser, 'name' | 'uid' | 'gid'>): Promise<void> {}

  async list(): Promise<FoundUser[]> {
    return [];
  }
}
