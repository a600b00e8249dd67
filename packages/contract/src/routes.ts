/**
 * Paths of the API, relative to the base path. The web client and the server share them so a
 * rename is one edit. Zod-free on purpose (see constants.ts).
 */
export const API = {
  configGet: 'config/get/',
  captchaChallenge: 'captcha/challenge/',
  userLogin: 'user/login/',
  userInfo: 'user/info/',
  userLogout: 'user/logout/',
  userChangePassword: 'user/changepass/',
  userForgotPassword: 'user/forgotpassword/',
  /** The login's second step: the code (or a recovery code) with the password step's token. */
  userLoginCode: 'user/login/code/',
  /** The login's second step answered with a passkey: its options, then the signed challenge. */
  userLoginPasskeyOptions: 'user/login/passkey/options/',
  userLoginPasskey: 'user/login/passkey/',
  /** A login with a passkey instead of password and code: domain, user and captcha first. */
  userLoginPasskeyStart: 'user/login/passkey/start/',
  passkeyList: 'user/passkeys/',
  passkeyRegisterOptions: 'user/passkeys/register/options/',
  passkeyRegister: 'user/passkeys/register/',
  passkeyReauthOptions: 'user/passkeys/reauth/options/',
  passkeyRemove: (id: number | string) => `user/passkeys/${id}/remove/`,
  passkeyRename: (id: number | string) => `user/passkeys/${id}/rename/`,
  twoFactorStatus: 'user/twofactor/',
  twoFactorSetup: 'user/twofactor/setup/',
  twoFactorEnable: 'user/twofactor/enable/',
  twoFactorDisable: 'user/twofactor/disable/',
  twoFactorRecoveryCodes: 'user/twofactor/recoverycodes/',
  /** The caller's own sessions; one ended by its list id, or every other one. */
  userSessions: 'user/sessions/',
  userSessionEnd: (id: string) => `user/sessions/${id}/end/`,
  userSessionsEndOthers: 'user/sessions/endothers/',
  /** The caller's personal API tokens: list, create (shown once), revoke one, or all. */
  apiTokens: 'user/apitokens/',
  apiTokenCreate: 'user/apitokens/create/',
  apiTokenResources: 'user/apitokens/resources/',
  apiTokenRevoke: (id: number | string) => `user/apitokens/${id}/revoke/`,
  apiTokensRevokeAll: 'user/apitokens/revokeall/',
  /** The OpenAPI 3.1 document of every call, generated from this contract. */
  openApi: 'openapi.json',
  permissionList: 'permission/list/',
  permissionSet: (id: number | string) => `permission/${id}/`,
  legalPrivacyPolicy: 'legal/privacypolicy/',
  contactMail: 'contactmail/',
  realtime: 'realtime/',
} as const;

/** DNS zone calls of a service. */
/** The activity log: one page (the whole account's, or one resource's), and the same as CSV. */
export const ACTIVITY_API = {
  list: 'activity/list/',
  export: 'activity/export/',
} as const;

export const DNS_API = {
  list: (serviceId: number | string) => `service/${serviceId}/dns/list/`,
  one: (serviceId: number | string, recordId: number | string) => `service/${serviceId}/dns/${recordId}/`,
  create: (serviceId: number | string) => `service/${serviceId}/dns/create/`,
  save: (serviceId: number | string, recordId: number | string) => `service/${serviceId}/dns/${recordId}/save/`,
  remove: (serviceId: number | string, recordId: number | string) => `service/${serviceId}/dns/${recordId}/delete/`,
  restore: (serviceId: number | string) => `service/${serviceId}/dns/restore/`,
  publish: (serviceId: number | string) => `service/${serviceId}/dns/publish/`,
  removeAll: (serviceId: number | string) => `service/${serviceId}/dns/delete/`,
  exportZone: (serviceId: number | string) => `service/${serviceId}/dns/export/`,
  importPreview: (serviceId: number | string) => `service/${serviceId}/dns/import/preview/`,
  importApply: (serviceId: number | string) => `service/${serviceId}/dns/import/`,
  importOptions: (serviceId: number | string) => `service/${serviceId}/dns/import/options/`,
  importAxfr: (serviceId: number | string) => `service/${serviceId}/dns/import/axfr/`,
  history: (serviceId: number | string) => `service/${serviceId}/dns/history/`,
  change: (serviceId: number | string, changeId: number | string) => `service/${serviceId}/dns/history/${changeId}/`,
  revert: (serviceId: number | string, changeId: number | string) =>
    `service/${serviceId}/dns/history/${changeId}/revert/`,
  restoreAt: (serviceId: number | string, changeId: number | string) =>
    `service/${serviceId}/dns/history/${changeId}/restore/`,
  exportAt: (serviceId: number | string, changeId: number | string) =>
    `service/${serviceId}/dns/history/${changeId}/export/`,
  dnssec: (serviceId: number | string) => `service/${serviceId}/dns/dnssec/`,
  dnssecSign: (serviceId: number | string) => `service/${serviceId}/dns/dnssec/sign/`,
  dnssecUnsign: (serviceId: number | string) => `service/${serviceId}/dns/dnssec/unsign/`,
  dnssecJob: (serviceId: number | string, jobId: string) => `service/${serviceId}/dns/dnssec/job/${jobId}/`,
} as const;

/** Domain area calls. */
export const DOMAIN_API = {
  domain: (id: number | string) => `domain/${id}/`,
  dnsInit: (id: number | string) => `domains/${id}/dnsinit/`,
  dnsEdit: (id: number | string) => `domain/${id}/dnsedit/`,
  dnssecList: (id: number | string) => `domain/${id}/dnssec/list/`,
  dnssecCreateInit: (id: number | string) => `domain/${id}/dnssec/createinit/`,
  dnssecCreate: (id: number | string) => `domain/${id}/dnssec/create/`,
  dnssecFromZone: (id: number | string) => `domain/${id}/dnssec/fromzone/`,
  dnssecScan: (id: number | string) => `domain/${id}/dnssec/scan/`,
  dnssecDelete: (id: number | string, dnssecId: number | string) => `domain/${id}/dnssec/${dnssecId}/delete/`,
  glueList: (id: number | string) => `domain/${id}/gluerecord/list/`,
  glueCreate: (id: number | string) => `domain/${id}/gluerecord/create/`,
  glueSave: (id: number | string, glueId: number | string) => `domain/${id}/gluerecord/${glueId}/save/`,
  glueDelete: (id: number | string, glueId: number | string) => `domain/${id}/gluerecord/${glueId}/delete/`,
  toggleBlock: (id: number | string) => `domain/${id}/toggle/block/`,
  toggleTransferBlock: (id: number | string) => `domain/${id}/toggle/transferblock/`,
  toggleWhoisPrivacy: (id: number | string) => `domain/${id}/toggle/whoisprivacy/`,
  authCode: (id: number | string) => `domain/${id}/authcode/`,
  transferKey: (id: number | string) => `domain/${id}/transferkey/`,
  ownerSave: (id: number | string) => `domain/${id}/owner/save/`,
  contactsSave: (id: number | string) => `domain/${id}/contacts/save/`,
  country: 'tools/country/',
} as const;

/** Mail calls of a service. */
export const MAIL_API = {
  mailboxes: (id: number | string) => `service/${id}/correo/list/`,
  aliases: (id: number | string) => `service/${id}/alias/list/`,
  /** Accounts and aliases in one paged list (the mail view). */
  list: (id: number | string) => `service/${id}/mail/list/`,
  /** (beyond the spec) the service's mailbox changes to its mail server now ("try again"). */
  apply: (id: number | string) => `service/${id}/mail/apply/`,
  mailbox: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/`,
  mailboxCreate: (id: number | string) => `service/${id}/correo/create/`,
  mailboxPassword: (id: number | string, accountId: number | string) =>
    `service/${id}/correo/${accountId}/changepassword/`,
  mailboxDelete: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/delete/`,
  mailboxQuota: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/quota/`,
  mailboxRules: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/rules/`,
  mailboxRulesSave: (id: number | string, accountId: number | string) =>
    `service/${id}/correo/${accountId}/rules/save/`,
  mailboxLogin: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/login/`,
  connection: (id: number | string) => `service/${id}/correo/connection/`,
  /** A mailbox's Apple configuration profile (a download, not an envelope). */
  mobileconfig: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/mobileconfig/`,
  alias: (id: number | string, aliasId: number | string) => `service/${id}/alias/${aliasId}/`,
  aliasCreate: (id: number | string) => `service/${id}/alias/create/`,
  aliasSave: (id: number | string, aliasId: number | string) => `service/${id}/alias/${aliasId}/save/`,
  aliasDelete: (id: number | string, aliasId: number | string) => `service/${id}/alias/${aliasId}/delete/`,
  /** (beyond the spec) spam filtering: each mailbox's, and the service's allow and block lists. */
  spam: (id: number | string) => `service/${id}/mail/spam/`,
  mailboxSpamSave: (id: number | string, accountId: number | string) => `service/${id}/correo/${accountId}/spam/save/`,
  spamSenderAdd: (id: number | string) => `service/${id}/mail/spam/senders/add/`,
  spamSenderDelete: (id: number | string, senderId: number | string) =>
    `service/${id}/mail/spam/senders/${senderId}/delete/`,
} as const;

/** The mail authentication calls of a service (relative to the API base path). */
export const MAIL_AUTH_API = {
  view: (serviceId: number | string) => `service/${serviceId}/mail/auth/`,
  rotate: (serviceId: number | string) => `service/${serviceId}/mail/auth/rotate/`,
  policy: (serviceId: number | string) => `service/${serviceId}/mail/auth/policy/`,
} as const;

/** FTP calls of a service. */
export const FTP_API = {
  main: (id: number | string) => `service/${id}/ftp/main/`,
  list: (id: number | string) => `service/${id}/ftp/list/`,
  one: (id: number | string, fid: number | string) => `service/${id}/ftp/${fid}/`,
  create: (id: number | string) => `service/${id}/ftp/create/`,
  save: (id: number | string, fid: number | string) => `service/${id}/ftp/${fid}/save/`,
  changePassword: (id: number | string, fid: number | string) => `service/${id}/ftp/${fid}/changepassword/`,
  remove: (id: number | string, fid: number | string) => `service/${id}/ftp/${fid}/delete/`,
  login: (id: number | string, fid: number | string) => `service/${id}/ftp/${fid}/login/`,
  /** (beyond the spec) the service's FTP changes to its server now ("try again"). */
  apply: (id: number | string) => `service/${id}/ftp/apply/`,
  /** (beyond the spec) the service's SFTP keys. */
  keys: (id: number | string) => `service/${id}/ftp/keys/`,
  addKey: (id: number | string) => `service/${id}/ftp/keys/add/`,
  removeKey: (id: number | string, kid: number | string) => `service/${id}/ftp/keys/${kid}/delete/`,
} as const;

/**
 * The file manager of a service. `upload` takes the raw bytes of one chunk (PUT,
 * application/octet-stream) and `download` answers the file itself; the rest are envelopes.
 */
export const FILES_API = {
  list: (id: number | string) => `service/${id}/files/list/`,
  read: (id: number | string) => `service/${id}/files/read/`,
  save: (id: number | string) => `service/${id}/files/save/`,
  createFolder: (id: number | string) => `service/${id}/files/mkdir/`,
  rename: (id: number | string) => `service/${id}/files/rename/`,
  remove: (id: number | string) => `service/${id}/files/delete/`,
  copy: (id: number | string) => `service/${id}/files/copy/`,
  move: (id: number | string) => `service/${id}/files/move/`,
  mode: (id: number | string) => `service/${id}/files/chmod/`,
  extract: (id: number | string) => `service/${id}/files/extract/`,
  download: (id: number | string) => `service/${id}/files/download/`,
  /** A folder (or file) as a .zip, streamed. */
  zip: (id: number | string) => `service/${id}/files/zip/`,
  upload: (id: number | string) => `service/${id}/files/upload/`,
  uploadStatus: (id: number | string) => `service/${id}/files/upload/status/`,
} as const;

/** Backups of a service: its snapshots, a backup now, a restore, and the job that runs either. */
export const BACKUPS_API = {
  list: (id: number | string) => `service/${id}/backups/list/`,
  run: (id: number | string) => `service/${id}/backups/run/`,
  restore: (id: number | string) => `service/${id}/backups/restore/`,
  job: (id: number | string, jobId: string) => `service/${id}/backups/job/${jobId}/`,
} as const;

/** A service's scheduled tasks (cron), each run's outcome, and a schedule worded before it is saved. */
export const CRON_API = {
  list: (id: number | string) => `service/${id}/cron/list/`,
  create: (id: number | string) => `service/${id}/cron/create/`,
  preview: (id: number | string) => `service/${id}/cron/preview/`,
  save: (id: number | string, taskId: number | string) => `service/${id}/cron/${taskId}/save/`,
  remove: (id: number | string, taskId: number | string) => `service/${id}/cron/${taskId}/delete/`,
  run: (id: number | string, taskId: number | string) => `service/${id}/cron/${taskId}/run/`,
  runs: (id: number | string, taskId: number | string) => `service/${id}/cron/${taskId}/runs/`,
} as const;

/** A service's site statistics: its sites with their months, one site's month, a refresh now. */
export const STATS_API = {
  sites: (id: number | string) => `service/${id}/stats/`,
  site: (id: number | string) => `service/${id}/stats/site/`,
  refresh: (id: number | string) => `service/${id}/stats/refresh/`,
} as const;

/** Database calls of a service. */
export const DDBB_API = {
  list: (id: number | string) => `service/${id}/ddbb/list/`,
  one: (id: number | string, did: number | string) => `service/${id}/ddbb/${did}/`,
  create: (id: number | string) => `service/${id}/ddbb/create/`,
  changePassword: (id: number | string, did: number | string) => `service/${id}/ddbb/${did}/changepassword/`,
  remove: (id: number | string, did: number | string) => `service/${id}/ddbb/${did}/delete/`,
  toggleExternalAccess: (id: number | string, did: number | string) =>
    `service/${id}/ddbb/${did}/toggle/externalaccess/`,
  dump: (id: number | string, did: number | string) => `service/${id}/ddbb/${did}/dump/`,
  login: (id: number | string, did: number | string) => `service/${id}/ddbb/${did}/login/`,
  /** (beyond the spec) the service's database changes to its server now ("try again"). */
  apply: (id: number | string) => `service/${id}/ddbb/apply/`,
} as const;

/** The hosting service itself: overview, PHP version, parking. */
export const HOSTING_API = {
  service: (id: number | string) => `service/${id}/`,
  php: (id: number | string) => `service/${id}/php/`,
  parkingActive: (id: number | string) => `service/${id}/parking/active/`,
  parkingDisable: (id: number | string) => `service/${id}/parking/disable/`,
  /** The tail of this service's nginx and PHP-FPM error logs. */
  logError: (id: number | string) => `service/${id}/logerror/`,
  /** The site the builder edits now. */
  webConstructor: (id: number | string) => `service/${id}/webconstructor/`,
  /** (sic: the spec's spelling) a short-lived signed URL into the brand's site builder. */
  webConstructorLogin: (id: number | string) => `service/${id}/webcontructorlogin/`,
  /** (beyond the spec) the service's web changes still to apply, tried now rather than at the next retry. */
  applyWeb: (id: number | string) => `service/${id}/web/apply/`,
} as const;

/** Redirections of a service. */
export const REDIRECTION_API = {
  list: (id: number | string) => `service/${id}/redirection/list/`,
  one: (id: number | string, rid: number | string) => `service/${id}/redirection/${rid}/`,
  create: (id: number | string) => `service/${id}/redirection/create/`,
  save: (id: number | string, rid: number | string) => `service/${id}/redirection/${rid}/save/`,
  remove: (id: number | string, rid: number | string) => `service/${id}/redirection/${rid}/delete/`,
} as const;

/** Sites (subdomains with their folder and certificate) of a service. */
export const SUBDOMAIN_API = {
  list: (id: number | string) => `service/${id}/subdomain/list/`,
  one: (id: number | string, sid: number | string) => `service/${id}/subdomain/${sid}/`,
  create: (id: number | string) => `service/${id}/subdomain/create/`,
  save: (id: number | string, sid: number | string) => `service/${id}/subdomain/${sid}/save/`,
  remove: (id: number | string, sid: number | string) => `service/${id}/subdomain/${sid}/delete/`,
  /** The site's automatic certificate: its state, automatic on (an order), back to manual. */
  certificate: (id: number | string, sid: number | string) => `service/${id}/subdomain/${sid}/certificate/`,
  certificateAuto: (id: number | string, sid: number | string) => `service/${id}/subdomain/${sid}/certificate/auto/`,
  certificateManual: (id: number | string, sid: number | string) =>
    `service/${id}/subdomain/${sid}/certificate/manual/`,
} as const;

/** The application installer's catalogue and the install call. */
export const INSTALLER_API = {
  list: 'hostingapplication/list/',
  /** A package's logo (an image, no envelope). */
  logo: (appId: number | string) => `hostingapplication/${appId}/logo/`,
  install: (id: number | string) => `service/${id}/installapp/`,
  /** A job's state, for the client that follows it. */
  job: (jobId: string) => `job/${jobId}/`,
} as const;

/** The account's own users, for the users who hold the right to manage them. */
export const USERS_API = {
  list: 'users/list/',
  create: 'users/create/',
  user: (id: number | string) => `users/${id}/`,
  permissions: (id: number | string) => `users/${id}/permissions/`,
  permissionsSet: (id: number | string) => `users/${id}/permissions/set/`,
  permissionsCopy: (id: number | string) => `users/${id}/permissions/copy/`,
  manager: (id: number | string) => `users/${id}/manager/`,
  disable: (id: number | string) => `users/${id}/disable/`,
  enable: (id: number | string) => `users/${id}/enable/`,
  resetTwoFactor: (id: number | string) => `users/${id}/twofactor/reset/`,
  endSessions: (id: number | string) => `users/${id}/sessions/end/`,
  remove: (id: number | string) => `users/${id}/remove/`,
  invitationResend: (id: number | string) => `users/${id}/invitation/resend/`,
  invitationCancel: (id: number | string) => `users/${id}/invitation/cancel/`,
  /** The invited user's side, before any session: what the link is for, and setting the password. */
  invitationCheck: 'invitation/check/',
  invitationAccept: 'invitation/accept/',
} as const;
