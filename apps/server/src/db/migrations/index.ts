import type { Migration } from 'kysely';
import * as m0001 from './0001-foundation.ts';
import * as m0002 from './0002-dns-zones.ts';
import * as m0003 from './0003-domains.ts';
import * as m0004 from './0004-mail.ts';
import * as m0005 from './0005-ftp.ts';
import * as m0006 from './0006-signon-and-databases.ts';
import * as m0007 from './0007-hosting-web.ts';
import * as m0008 from './0008-site-builder-and-installer.ts';
import * as m0009 from './0009-mail-catch-all.ts';
import * as m0010 from './0010-rate-limit-pending.ts';
import * as m0011 from './0011-dns-zone-publishing.ts';
import * as m0012 from './0012-backups.ts';
import * as m0013 from './0013-mail-dkim.ts';
import * as m0014 from './0014-two-factor.ts';
import * as m0015 from './0015-site-certificates.ts';
import * as m0016 from './0016-mail-list-sort-key.ts';
import * as m0017 from './0017-passkeys.ts';
import * as m0018 from './0018-brand-acme-email.ts';
import * as m0019 from './0019-dns-change-history.ts';
import * as m0020 from './0020-mailbox-rules.ts';
import * as m0021 from './0021-api-tokens.ts';
import * as m0022 from './0022-activity-log.ts';
import * as m0023 from './0023-dnssec-jobs-and-scans.ts';
import * as m0025 from './0025-mail-counts.ts';
import * as m0026 from './0026-one-running-unsign-job.ts';
import * as m0027 from './0027-service-users.ts';
import * as m0028 from './0028-mail-send-counts.ts';
import * as m0029 from './0029-mail-certificates.ts';
import * as m0030 from './0030-mail-senders-view.ts';
import * as m0031 from './0031-embedded-jobs.ts';
import * as m0032 from './0032-leases-become-jobs.ts';
import * as m0033 from './0033-zone-publish-log.ts';
import * as m0034 from './0034-service-change-log.ts';
import * as m0035 from './0035-nodes.ts';
import * as m0036 from './0036-service-placements.ts';
import * as m0037 from './0037-moving-parts-served-nowhere.ts';
import * as m0038 from './0038-plans.ts';
import * as m0039 from './0039-provider-api.ts';
import * as m0040 from './0040-suspended-services-logins.ts';
import * as m0041 from './0041-service-terminations.ts';
import * as m0042 from './0042-staff-users.ts';
import * as m0043 from './0043-account-users.ts';
import * as m0044 from './0044-epp-registries.ts';
import * as m0045 from './0045-registry-messages.ts';
import * as m0046 from './0046-cron-tasks.ts';
import * as m0047 from './0047-sftp-keys.ts';
import * as m0048 from './0048-site-stats.ts';
import * as m0049 from './0049-spam-filtering.ts';

/** Every migration in order. Names are frozen: renaming one would re-run it. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-dns-zones': m0002,
  '0003-domains': m0003,
  '0004-mail': m0004,
  '0005-ftp': m0005,
  '0006-signon-and-databases': m0006,
  '0007-hosting-web': m0007,
  '0008-site-builder-and-installer': m0008,
  '0009-mail-catch-all': m0009,
  '0010-rate-limit-pending': m0010,
  '0011-dns-zone-publishing': m0011,
  '0012-backups': m0012,
  '0013-mail-dkim': m0013,
  '0014-two-factor': m0014,
  '0015-site-certificates': m0015,
  '0016-mail-list-sort-key': m0016,
  '0017-passkeys': m0017,
  '0018-brand-acme-email': m0018,
  '0019-dns-change-history': m0019,
  '0020-mailbox-rules': m0020,
  '0021-api-tokens': m0021,
  '0022-activity-log': m0022,
  '0023-dnssec-jobs-and-scans': m0023,
  '0025-mail-counts': m0025,
  '0026-one-running-unsign-job': m0026,
  '0027-service-users': m0027,
  '0028-mail-send-counts': m0028,
  '0029-mail-certificates': m0029,
  '0030-mail-senders-view': m0030,
  '0031-embedded-jobs': m0031,
  '0032-leases-become-jobs': m0032,
  '0033-zone-publish-log': m0033,
  '0034-service-change-log': m0034,
  '0035-nodes': m0035,
  '0036-service-placements': m0036,
  '0037-moving-parts-served-nowhere': m0037,
  '0038-plans': m0038,
  '0039-provider-api': m0039,
  '0040-suspended-services-logins': m0040,
  '0041-service-terminations': m0041,
  '0042-staff-users': m0042,
  '0043-account-users': m0043,
  '0044-epp-registries': m0044,
  '0045-registry-messages': m0045,
  '0046-cron-tasks': m0046,
  '0047-sftp-keys': m0047,
  '0048-site-stats': m0048,
  '0049-spam-filtering': m0049,
};
