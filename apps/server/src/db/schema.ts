import type { PermissionKey, PermissionLevel } from '@panel247/contract/constants';
import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * The panel database as Kysely sees it. Times are epoch seconds; booleans are 0/1 integers so the
 * same rows work on SQLite and PostgreSQL.
 */

export interface BrandTable {
  id: Generated<number>;
  slug: string;
  company: string;
  color: string;
  logo: string;
  logo_mini: string;
  allow_color_change: number;
  default_language: string;
  channel: string;
  contact_email: string;
  webmail_host: string;
  webftp_host: string;
  phpmyadmin_host: Generated<string>;
  builder_host: Generated<string>;
  ssl_host: string;
  is_default: number;
  created_at: number;
  /** 1: every user of the brand's accounts must have a second factor before doing anything. */
  require_2fa: Generated<number>;
  /** The brand's contact at the ACME CA ('' : the provider's, PANEL_ACME_EMAIL). */
  acme_email: Generated<string>;
}

export interface BrandHostTable {
  host: string;
  brand_id: number;
}

export interface LegalTextTable {
  brand_id: number;
  kind: string;
  language: string;
  title: string;
  body: string;
  redirect_to: string;
}

export interface AccountTable {
  id: Generated<number>;
  brand_id: number;
  domain_name: string;
  name: string;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  account_id: number;
  username: string;
  password_hash: string;
  last_login_at: number | null;
  last_login_ip: string | null;
  password_changed_at: number;
  created_at: number;
  /** Where security changes are reported ('' when unknown). */
  email: Generated<string>;
  /** 1: holds the account's right to manage its users (migration 0043). */
  manage_users: Generated<number>;
  /** Set while the user is disabled: no login, no session, no token. */
  disabled_at: number | null;
  /** 1: a manager reset their second factor; they set one up before anything else. */
  second_factor_required: Generated<number>;
}

/** A registry the EPP driver speaks to (migration 0044). */
export interface EppRegistryTable {
  id: Generated<number>;
  name: string;
  /** Comma-separated, lower-case: `es,com.es`. */
  tlds: string;
  host: string;
  port: Generated<number>;
  cert_file: string;
  key_file: string;
  /** '' : the system's CAs. */
  ca_file: Generated<string>;
  client_id: string;
  password_sealed: string;
  host_objects: Generated<number>;
  sessions: Generated<number>;
  rate_per_second: Generated<number>;
  /** The extension URIs its last greeting announced, comma-separated. */
  extensions: Generated<string>;
  created_at: number;
}

/** A user's live invitation to set their password (migration 0043). */
export interface UserInvitationTable {
  user_id: number;
  /** sha256 of the link's token. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  cancelled_at: number | null;
}

export interface UserTotpTable {
  user_id: number;
  secret_sealed: string;
  enabled_at: number | null;
  last_step: number | null;
  created_at: number;
}

export interface UserRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

export interface LoginChallengeTable {
  id: string;
  user_id: number;
  account_key: string;
  previous_login_at: number | null;
  expires_at: number;
  /** The WebAuthn challenge a passkey must sign to answer this login (null: none asked yet). */
  passkey_challenge: string | null;
  /** 1: started without a password, so only a user-verifying passkey may finish it. */
  passwordless: Generated<number>;
}

export interface UserPasskeyTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
  transports: string;
  name: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

export interface PasskeyChallengeTable {
  user_id: number;
  purpose: 'register' | 'reauth';
  challenge: string;
  expires_at: number;
}

export interface ResourceTable {
  id: Generated<number>;
  account_id: number;
  reference: string;
  reference_punycode: string;
  has_domain: number;
  has_service: number;
  has_mail: number;
  is_redir_and_parking: number;
  domain_expire_ts: number | null;
  service_expire_ts: number | null;
  mail_expire_ts: number | null;
  created_at: number;
  /** The hosting service's plan (migration 0038); null for a resource without a service. */
  plan_id: Generated<number | null>;
  /** When the provider suspended the service (migration 0039); null while it is active. */
  suspended_at: Generated<number | null>;
  suspended_reason: Generated<string>;
}

/** The provider's own API tokens (migration 0039): only their SHA-256 is kept. */
export interface ProviderTokenTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A creating provider call's answer by its token and Idempotency-Key (migration 0039). */
export interface ProviderIdempotencyTable {
  token_id: number;
  idempotency_key: string;
  request_hash: string;
  state: 'running' | 'done';
  status_code: number | null;
  answer: string | null;
  created_at: number;
  /** The domain the call made (migration 0041): its termination forgets the key. */
  subject: string | null;
}

/** The provider's staff (migration 0042): the console's users, never a customer's. */
export interface StaffUserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  totp_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_last_step: number | null;
  created_at: number;
  last_login_at: number | null;
}

export interface StaffSessionTable {
  /** The sha256 of the cookie's token. */
  id: string;
  staff_id: number;
  created_at: number;
  last_seen_at: number;
  ip: Generated<string>;
}

/** A terminated hosting service (migration 0041), kept after its rows are gone. */
export interface ServiceTerminationTable {
  service_id: number;
  domain: string;
  account_id: number;
  state: 'running' | 'done' | 'failed';
  step: Generated<string>;
  /** JSON: what each server removes (ServiceRemoval), '' until the service's rows are deleted. */
  removal: Generated<string>;
  snapshot_id: Generated<string>;
  keep_until: number | null;
  backup_released_at: number | null;
  error: Generated<string>;
  requested_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** The provider's plans (migration 0038): NULL limits have none; sizes in MiB. */
export interface PlanTable {
  id: Generated<number>;
  name: string;
  web_space_mb: number | null;
  traffic_mb: number | null;
  sites: number | null;
  mailboxes: number | null;
  mailbox_mb: number | null;
  aliases: number | null;
  ftp_accounts: number | null;
  databases: number | null;
  database_space_mb: number | null;
  backup_mb: number | null;
  /** Comma list; '' : every version the server has. */
  php_versions: string;
  php_workers: number;
  /** Scheduled tasks a service may have (migration 0046); null: no limit. */
  cron_tasks: Generated<number | null>;
  /** The shortest interval between two runs of a task, in minutes. */
  cron_min_interval_minutes: Generated<number>;
  /** SSH keys a service may have (migration 0047); null: no limit. */
  ssh_keys: Generated<number | null>;
  /** Entries a service's spam allow and block lists may hold together (migration 0049); null: no limit. */
  spam_senders: Generated<number | null>;
  /** MiB of access logs a service keeps for its statistics (migration 0048); null: no limit. */
  stats_log_mb: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/** One row per user and resource, one column per permission key; no row means no access. */
export type PermissionGrantTable = { user_id: number; resource_id: number } & Record<PermissionKey, PermissionLevel>;

export interface SessionTable {
  /** sha256 of the cookie's token: a leaked table does not leak usable sessions. */
  id: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
  previous_login_at: number | null;
}

/** A personal API token: only its sha256 is kept, like the sessions' ids. */
export interface ApiTokenTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  /** JSON: [{"r": resourceId, "l": "read" | "write"}]. */
  scope: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  last_used_ip: Generated<string>;
}

export interface ActivityLogTable {
  id: Generated<number>;
  account_id: number;
  user_id: number | null;
  username: string;
  /** Epoch seconds. */
  at: number;
  ip: string;
  via: string;
  resource_id: number | null;
  permission_key: Generated<string>;
  area: string;
  action: string;
  target: Generated<string>;
  /** JSON: [{"f": field, "b": before | null, "a": after | null}]. */
  changes: Generated<string>;
}

export interface RateLimitTable {
  bucket: string;
  key: string;
  window_start: number;
  hits: number;
  /** Attempts being checked now (login, password change): not failures, but they hold a place. */
  pending: Generated<number>;
}

export interface OutboxTable {
  id: Generated<number>;
  brand_id: number;
  kind: string;
  to_address: string;
  reply_to: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  error: string | null;
}

export interface CaptchaSpentTable {
  signature: string;
  expires_at: number;
}

export interface DnsZoneTable {
  service_id: number;
  created_at: number;
  /** Since when the zone has changes still to publish (dns_zone_changes); null when it has none. */
  unpublished_since: number | null;
}

/** One change of a zone on its way to the DNS server (see modules/dns/zone-publishing.ts). */
/** A change a server must apply for a service (its web side, …), on its way through the work log. */
export interface ServiceChangeTable {
  id: Generated<number>;
  /** What part of the service: 'web'. */
  area: string;
  service_id: number;
  /** JSON: what the change touched (the area's own type, e.g. WebChange). */
  change: string;
  /** JSON: the rows it replaced, put back if the server refuses it. */
  undo: string | null;
  state: 'pending' | 'applied' | 'refused';
  /** JSON: what the waiting request is told (ServiceChangeOutcome). */
  outcome: string | null;
  created_at: number;
}

export interface DnsZoneChangeTable {
  id: Generated<number>;
  service_id: number;
  /** JSON: what to publish (ZonePublish). */
  publish: string;
  /** JSON: how to undo the change if the server refuses it (ZoneUndo); null for a sync. */
  undo: string | null;
  state: 'pending' | 'published' | 'refused';
  /** JSON: what the waiting request is told (ZoneChangeOutcome). */
  outcome: string | null;
  created_at: number;
}

export interface DnsRecordTable {
  id: Generated<number>;
  service_id: number;
  zona: string;
  type: string;
  ttl: number;
  priority: number;
  value: string;
  dynamic_value: string;
  eliminable: number;
  created_at: number;
}

/** One change of a zone: who made it (user_id null: the panel itself), when, and what kind. */
export interface DnsChangeSetTable {
  id: Generated<number>;
  service_id: number;
  created_at: number;
  user_id: number | null;
  who: string;
  kind: string;
  refers_to: number | null;
  rrset_count: number;
}

/** One RRset a change set touched: its records before and after (JSON lists of DnsHistoryRecord). */
export interface DnsChangeRRsetTable {
  id: Generated<number>;
  change_set_id: number;
  zona: string;
  type: string;
  before: string;
  after: string;
}

/** A message of a registry's poll queue (migration 0045). */
export interface RegistryMessageTable {
  id: Generated<number>;
  registry: string;
  message_id: string;
  /** '' when it names no domain. */
  domain: string;
  /** '' unless it is a domain transfer: pending, clientApproved, serverApproved… */
  transfer_state: Generated<string>;
  requested_by: Generated<string>;
  requested_at: Generated<number>;
  action_by: Generated<string>;
  action_at: Generated<number>;
  /** 1 when the panel's registrar is the one losing the domain. */
  outgoing: Generated<number>;
  text: string;
  queued_at: number;
  received_at: number;
}

/** A scheduled task of a hosting service (migration 0046). */
export interface CronTaskTable {
  id: Generated<number>;
  service_id: number;
  /** 'php' or 'url'. */
  kind: string;
  target: string;
  schedule: string;
  email: Generated<string>;
  enabled: Generated<number>;
  /** The last minute (epoch seconds) the round sent it to run. */
  due_at: Generated<number>;
  created_at: number;
}

/** One run of a scheduled task. */
export interface CronRunTable {
  id: Generated<number>;
  task_id: number;
  /** 'schedule' or 'manual'. */
  trigger: string;
  started_at: number;
  finished_at: Generated<number>;
  exit_code: number | null;
  /** 'running', 'ok', 'failed', 'timeout'. */
  outcome: string;
  output: Generated<string>;
  /** 1 once its output went to the task's address (the control plane's round mails it). */
  mailed: Generated<number>;
}

export interface DomainTable {
  resource_id: number;
  dns_mode: string;
  status: string;
  registered_at: number;
  blocked: number;
  transfer_block: number;
  whois_privacy: number;
  auth_type: string;
  dnssec_type: string;
  auth_secret: string;
}

export interface DomainNameserverTable {
  resource_id: number;
  position: number;
  host: string;
}

export interface DomainGlueRecordTable {
  id: Generated<number>;
  resource_id: number;
  name: string;
  ipv4: string;
  ipv6: string;
}

export interface DomainDsRecordTable {
  id: Generated<number>;
  resource_id: number;
  keytag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
}

export interface ContactTable {
  id: Generated<number>;
  account_id: number;
  is_org: number;
  org_name: string;
  first_name: string;
  last_name: string;
  ident_number: string;
  email: string;
  phone: string;
  address: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
  created_at: number;
}

export interface DomainContactTable {
  resource_id: number;
  role: string;
  contact_id: number;
}

export interface MailboxTable {
  id: Generated<number>;
  service_id: number;
  local_part: string;
  password_hash: string;
  quota_bytes: number;
  eliminable: Generated<number>;
  created_at: number;
  /** The mail view's sort key: the address in lower case (migration 0016; the repository writes it). */
  sort_key: string;
}

/** How many mailboxes and aliases a service has (migration 0025); the mail repository keeps it. */
export interface MailCountsTable {
  service_id: number;
  mailboxes: number;
  aliases: number;
}

/** What a mailbox login sent in its current hour (migration 0028); see modules/mail-sending. */
export interface MailSendCountsTable {
  login: string;
  window_start: number;
  /** Recipients counted in the window (a message to three people counts three). */
  sent: number;
  /** 1 once the window's first refusal was written to the activity log. */
  alerted: Generated<number>;
}

/** A mailbox's autoresponder and forwarding (migration 0020); the driver writes its Sieve script. */
/** A mailbox's spam filtering (migration 0049); no row: off. */
export interface MailboxSpamTable {
  mailbox_id: number;
  /** 'off', 'junk' or 'tag' (SPAM_MODES): switched off, the row keeps the threshold for later. */
  mode: string;
  threshold: number;
  updated_at: number;
}

/** A sender on a mail service's spam allow or block list (migration 0049). */
export interface MailSpamSenderTable {
  id: Generated<number>;
  service_id: number;
  /** 'allow' or 'block'. */
  list: string;
  /** An address or a domain, lower case. */
  sender: string;
  created_at: number;
}

export interface MailboxRulesTable {
  mailbox_id: number;
  autoreply: number;
  subject: string;
  body: string;
  /** 'YYYY-MM-DD', or '' for no limit. */
  start_date: string;
  end_date: string;
  /** Days before the same sender is answered again. */
  days: number;
  /** Comma-separated addresses. */
  forward_targets: string;
  keep_copy: number;
  updated_at: number;
}

/** A DKIM key of a service's mail domain (see migration 0013). */
export interface MailDkimKeyTable {
  id: Generated<number>;
  service_id: number;
  selector: string;
  algorithm: string;
  private_key: string;
  public_key: string;
  state: string;
  created_at: number;
  activated_at: number | null;
  retire_at: number | null;
}

/** The DMARC and SPF form's choices for a domain whose zone lives elsewhere. */
export interface MailAuthPolicyTable {
  service_id: number;
  spf_includes: string;
  dmarc_policy: string;
  dmarc_pct: number;
  dmarc_rua: string;
  updated_at: number;
}

export interface MailAliasTable {
  id: Generated<number>;
  service_id: number;
  local_part: string;
  targets: string;
  eliminable: Generated<number>;
  created_at: number;
  /** The mail view's sort key: the address in lower case, the domain alone for '' (migration 0016). */
  sort_key: string;
}

/** One-time hand-off tokens; `kind` says which application redeems them (see modules/signon). */
export interface SignonTokenTable {
  token_hash: string;
  kind: string;
  subject_id: number;
  expires_at: number;
}

export interface HostedDatabaseTable {
  id: Generated<number>;
  service_id: number;
  name: string;
  db_user: string;
  password_sealed: string;
  external_access: Generated<number>;
  eliminable: Generated<number>;
  created_at: number;
}

export interface FtpAccountTable {
  id: Generated<number>;
  service_id: number;
  login: string;
  folder: string;
  password_hash: string;
  password_sealed: string;
  home: string;
  eliminable: Generated<number>;
  created_at: number;
}

/** A hosting service's own system user and group (same name, same number): see migration 0027. */
export interface ServiceUserTable {
  service_id: number;
  /** `p247s<service id>`: made from the id, never renamed. */
  name: string;
  uid: number;
  gid: number;
  /** The service's home on the panel's hosting root, '' until written (migration 0047). */
  home: Generated<string>;
  created_at: number;
}

/** A site's statistics for one month: GoAccess's report, summed up (migration 0048). */
export interface SiteStatsTable {
  id: Generated<number>;
  service_id: number;
  host: string;
  /** YYYY-MM. */
  month: string;
  /** JSON: the contract's StatsSummary. */
  summary: string;
  updated_at: number;
}

/** When a service's statistics were last refreshed. */
export interface StatsRefreshTable {
  service_id: number;
  refreshed_at: number;
}

/** A public key of a service for SFTP, for one login (migration 0047). */
export interface SshKeyTable {
  id: Generated<number>;
  service_id: number;
  /** The FTP account it logs in as; null: the service's own login. */
  ftp_account_id: number | null;
  name: string;
  /** The key's type as SSH names it: ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa… */
  algorithm: string;
  bits: number;
  /** SHA256:… as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** OpenSSH's one line, as shown. */
  public_key: string;
  /** The same key as RFC 4716 text: what ProFTPD reads. */
  rfc4716: string;
  created_at: number;
}

/** One of the provider's servers (migration 0035). */
/** A part of a service on its way to another server (migration 0036). */
export interface ServiceMoveTable {
  service_id: number;
  role: 'web' | 'mail' | 'databases';
  from_node: string;
  to_node: string;
  state: 'copying' | 'cutover';
  started_at: number;
}

/** Which server holds a part (role) of a hosting service (migration 0036). */
export interface ServicePlacementTable {
  service_id: number;
  role: 'web' | 'mail' | 'databases';
  node: string;
  placed_at: number;
}

export interface NodeTable {
  id: Generated<number>;
  name: string;
  /** Comma list of web, mail, databases, dns. */
  roles: string;
  capacity: number;
  /** The host name customers connect to (connection data, hand-offs). */
  host: string;
  /** Its agent's node channel, http://host:port. */
  channel_url: string;
  /** Its public addresses ('' : none), for the records of the zones of services placed on it (migration 0036). */
  ipv4: Generated<string>;
  ipv6: Generated<string>;
  /** Its PANEL_HOSTING_ROOT, reported by its agent when it starts ('' until then; migration 0037). */
  hosting_root: Generated<string>;
  state: 'active' | 'draining';
  /** SHA-256 (hex) of its agent's key. */
  key_hash: string;
  created_at: number;
  last_seen_at: number | null;
}

export interface WebSettingsTable {
  service_id: number;
  php_version: Generated<string>;
  parking: Generated<number>;
  /** The site the builder edits: NULL before it was first opened, '' the main domain. */
  builder_site: string | null;
  updated_at: number;
}

export interface WebSiteTable {
  id: Generated<number>;
  service_id: number;
  subdomain: string;
  folder: string;
  ssl_active: Generated<number>;
  cert_pem: Generated<string>;
  cert_chain_pem: Generated<string>;
  key_sealed: Generated<string>;
  eliminable: Generated<number>;
  created_at: number;
}

export interface AcmeAccountTable {
  id: Generated<number>;
  directory_url: string;
  email: Generated<string>;
  key_sealed: string;
  created_at: number;
}

export interface SiteCertificateTable {
  site_id: number;
  service_id: number;
  challenge: string;
  wildcard: Generated<number>;
  state: string;
  error_key: Generated<string>;
  error_detail: Generated<string>;
  expires_at: Generated<number>;
  updated_at: number;
}

/** A certificate of the mail daemons (ACME): the brand's SSL mail host, or a domain's imap. and smtp. */
export interface MailCertificateTable {
  name: string;
  hosts: string;
  state: string;
  error_key: Generated<string>;
  error_detail: Generated<string>;
  expires_at: Generated<number>;
  updated_at: number;
  cert_pem: Generated<string>;
  chain_pem: Generated<string>;
  key_sealed: Generated<string>;
}

export interface WebRedirectionTable {
  id: Generated<number>;
  service_id: number;
  subdomain: string;
  path: string;
  url: string;
  type: string;
  iframe_title: Generated<string>;
  iframe_description: Generated<string>;
  iframe_keywords: Generated<string>;
  eliminable: Generated<number>;
  created_at: number;
}

export interface BackupSnapshotTable {
  id: Generated<number>;
  service_id: number;
  snapshot_id: string;
  created_at: number;
  size_bytes: number;
  added_bytes: number;
  holds: string;
}

export interface BackupJobTable {
  id: string;
  user_id: number | null;
  service_id: number;
  kind: string;
  target: Generated<string>;
  status: string;
  step: Generated<string>;
  error_key: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface DnssecUnsignJobTable {
  id: string;
  service_id: number;
  user_id: number | null;
  status: string;
  step: string;
  wait_until: Generated<number>;
  wait_seconds: Generated<number>;
  error_key: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface DnssecScanTable {
  resource_id: number;
  outcome: string;
  detail: Generated<string>;
  checked_at: number;
}

export interface BackupDayTable {
  day: string;
  taken_at: number;
}

export interface InstallJobTable {
  id: string;
  user_id: number;
  service_id: number;
  app_id: number;
  status: string;
  progress: Generated<number>;
  result_url: Generated<string>;
  result_folder: Generated<string>;
  error_key: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** The embedded job engine's jobs (SQLite only; jobs/embedded-engine.ts). Times in epoch ms. */
export interface EmbeddedJobTable {
  seq: Generated<number>;
  id: string;
  kind: string;
  key: string | null;
  policy: string;
  payload: string;
  state: string;
  retries: Generated<number>;
  error: string | null;
  run_after: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface EmbeddedJobScheduleTable {
  kind: string;
  cron: string;
  payload: string;
  last_slot: number;
}

export interface Database {
  brands: BrandTable;
  brand_hosts: BrandHostTable;
  legal_texts: LegalTextTable;
  accounts: AccountTable;
  users: UserTable;
  user_invitations: UserInvitationTable;
  epp_registries: EppRegistryTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodeTable;
  login_challenges: LoginChallengeTable;
  user_passkeys: UserPasskeyTable;
  passkey_challenges: PasskeyChallengeTable;
  resources: ResourceTable;
  plans: PlanTable;
  provider_tokens: ProviderTokenTable;
  provider_idempotency: ProviderIdempotencyTable;
  service_terminations: ServiceTerminationTable;
  staff_users: StaffUserTable;
  staff_sessions: StaffSessionTable;
  permission_grants: PermissionGrantTable;
  sessions: SessionTable;
  api_tokens: ApiTokenTable;
  activity_log: ActivityLogTable;
  rate_limits: RateLimitTable;
  outbox: OutboxTable;
  captcha_spent: CaptchaSpentTable;
  dns_zones: DnsZoneTable;
  dns_zone_changes: DnsZoneChangeTable;
  service_changes: ServiceChangeTable;
  dns_records: DnsRecordTable;
  dns_change_sets: DnsChangeSetTable;
  dns_change_rrsets: DnsChangeRRsetTable;
  domains: DomainTable;
  registry_messages: RegistryMessageTable;
  cron_tasks: CronTaskTable;
  cron_runs: CronRunTable;
  domain_nameservers: DomainNameserverTable;
  domain_glue_records: DomainGlueRecordTable;
  domain_ds_records: DomainDsRecordTable;
  contacts: ContactTable;
  domain_contacts: DomainContactTable;
  mailboxes: MailboxTable;
  mail_aliases: MailAliasTable;
  mailbox_rules: MailboxRulesTable;
  mailbox_spam: MailboxSpamTable;
  mail_spam_senders: MailSpamSenderTable;
  mail_counts: MailCountsTable;
  mail_send_counts: MailSendCountsTable;
  mail_dkim_keys: MailDkimKeyTable;
  mail_auth_policies: MailAuthPolicyTable;
  signon_tokens: SignonTokenTable;
  ftp_accounts: FtpAccountTable;
  service_users: ServiceUserTable;
  ssh_keys: SshKeyTable;
  site_stats: SiteStatsTable;
  stats_refreshes: StatsRefreshTable;
  nodes: NodeTable;
  service_placements: ServicePlacementTable;
  service_moves: ServiceMoveTable;
  hosted_databases: HostedDatabaseTable;
  web_settings: WebSettingsTable;
  web_sites: WebSiteTable;
  web_redirections: WebRedirectionTable;
  acme_accounts: AcmeAccountTable;
  site_certificates: SiteCertificateTable;
  mail_certificates: MailCertificateTable;
  install_jobs: InstallJobTable;
  backup_snapshots: BackupSnapshotTable;
  backup_jobs: BackupJobTable;
  backup_days: BackupDayTable;
  dnssec_unsign_jobs: DnssecUnsignJobTable;
  dnssec_scans: DnssecScanTable;
  embedded_jobs: EmbeddedJobTable;
  embedded_job_schedules: EmbeddedJobScheduleTable;
}

export type BrandRow = Selectable<BrandTable>;
export type ResourceRow = Selectable<ResourceTable>;
export type NewResource = Insertable<ResourceTable>;
export type PermissionGrantRow = Selectable<PermissionGrantTable>;
export type DnsRecordRow = Selectable<DnsRecordTable>;
export type DomainRow = Selectable<DomainTable>;
export type ContactRow = Selectable<ContactTable>;
