import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';
import { applyingSchema } from './job.ts';
import { listPageFields, listTotal } from './list-query.ts';

export { FTP_USER_MAX } from './ftp-rules.ts';

export const ftpAccountSchema = z.object({
  id: z.number().int(),
  /** The login: the name typed plus "@" and the service's domain. */
  user: z.string(),
  /** Folder relative to the service home ('' is the home itself). */
  directorio: z.string(),
  /** Only filled by the single-account call ("show password"); '' in lists. */
  password: z.string(),
  eliminable: z.boolean(),
});
export type FtpAccount = z.infer<typeof ftpAccountSchema>;

export const ftpServiceParamsSchema = z.object({ id: idParam });
/** The list call; paged and filtered (on the login and the folder) when asked, see list-query.ts. */
export const ftpListParamsSchema = z.object({ id: idParam, ...listPageFields(['user', 'folder']) });
export type FtpListParams = z.infer<typeof ftpListParamsSchema>;
export const ftpAccountParamsSchema = z.object({ id: idParam, fid: idParam });
export const ftpCreateParamsSchema = z.object({
  id: idParam,
  ftpUser: textAsTyped(64),
  password: textAsTyped(128),
  folder: textAsTyped(255).optional().default(''),
});
export const ftpSaveParamsSchema = z.object({
  id: idParam,
  fid: idParam,
  folder: textAsTyped(255).optional().default(''),
});
export const ftpPasswordParamsSchema = z.object({ id: idParam, fid: idParam, password: textAsTyped(128) });

/** WebFTP login: the folder (relative to the account's own) the WebFTP opens first. */
export const ftpLoginParamsSchema = z.object({
  id: idParam,
  fid: idParam,
  initialDirectory: textAsTyped(255).optional().default(''),
});

export const ftpListDataSchema = z.object({ ftps: z.array(ftpAccountSchema), total: listTotal });
export const ftpOneDataSchema = z.object({ ftp: ftpAccountSchema });
/**
 * Whether the service's FTP changes are all on its FTP server (see applyingSchema): `users_file`,
 * the server could not save its list of logins.
 */
export const ftpApplyingSchema = applyingSchema(['users_file']);
export type FtpApplying = z.infer<typeof ftpApplyingSchema>;

export const ftpMainDataSchema = z.object({
  ftp: z.object({ host: z.string(), sslHost: z.string(), port: z.number().int(), webftp: z.string() }),
  /**
   * (beyond the spec) SFTP on the same host and logins: its port, and the service's own login (its
   * domain, by key only), null while the service has no system user with a home on its server.
   */
  sftp: z.object({ host: z.string(), port: z.number().int(), login: z.string().nullable() }),
  /** (beyond the spec) changes not yet on the FTP server. */
  applying: ftpApplyingSchema,
});

/** What the WebFTP's server gets for a token (server to server): the account it opens. */
export const ftpRedeemDataSchema = z.object({
  user: z.string(),
  password: z.string(),
  host: z.string(),
  port: z.number().int(),
});

// The calls' shapes as types, so the web can import them without zod.
export type FtpCreateParams = z.infer<typeof ftpCreateParamsSchema>;
export type FtpSaveParams = z.infer<typeof ftpSaveParamsSchema>;
export type FtpPasswordParams = z.infer<typeof ftpPasswordParamsSchema>;
export type FtpLoginParams = z.infer<typeof ftpLoginParamsSchema>;
export type FtpListData = z.infer<typeof ftpListDataSchema>;
export type FtpOneData = z.infer<typeof ftpOneDataSchema>;
export type FtpMainData = z.infer<typeof ftpMainDataSchema>;
