import type { BackupHolds } from '@panel247/contract/backups';

/** One badge of what a snapshot holds: an i18n key and what it interpolates. */
export interface HoldBadge {
  id: 'files' | 'mail' | 'databases' | 'dns';
  key: string;
  values: Record<string, string | number>;
}

/** What a snapshot holds as badges, in a fixed order; a part it does not hold has none. */
export function holdBadges(holds: BackupHolds): HoldBadge[] {
  const badges: HoldBadge[] = [];
  if (holds.files) badges.push({ id: 'files', key: 'backups.holds.files', values: {} });
  if (holds.mailboxes.length > 0) {
    badges.push({ id: 'mail', key: 'backups.holds.mail', values: { count: holds.mailboxes.length } });
  }
  if (holds.databases.length > 0) {
    badges.push({ id: 'databases', key: 'backups.holds.databases', values: { names: holds.databases.join(', ') } });
  }
  if (holds.dns) badges.push({ id: 'dns', key: 'backups.holds.dns', values: {} });
  return badges;
}
