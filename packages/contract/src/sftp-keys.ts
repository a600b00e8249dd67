import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';

/** The longest key name, and the longest key text pasted (an RSA key of 16384 bits fits). */
export const SSH_KEY_NAME_MAX = 100;
export const SSH_KEY_TEXT_MAX = 8192;
/** The smallest RSA key taken: NIST's floor since 2014; the other types are fixed sizes. */
export const SSH_RSA_MIN_BITS = 2048;

/** A public key a service's customer added for SFTP, for one login. */
export const sshKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** SSH's name of its type: ssh-ed25519, ecdsa-sha2-nistp256/384/521, ssh-rsa. */
  algorithm: z.string(),
  bits: z.number().int(),
  /** `SHA256:…`, as `ssh-keygen -l` prints it. */
  fingerprint: z.string(),
  /** The login it opens: the service's own (its domain) or an FTP account's. */
  login: z.string(),
  /** The FTP account it is for; null: the service's own login. */
  ftpId: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type SshKey = z.infer<typeof sshKeySchema>;

export const sshKeyListParamsSchema = z.object({ id: idParam });
export const sshKeyListDataSchema = z.object({
  keys: z.array(sshKeySchema),
  /** The plan's limit on keys; null: none. */
  maxKeys: z.number().int().nullable(),
});
export type SshKeyListData = z.infer<typeof sshKeyListDataSchema>;

export const sshKeyAddParamsSchema = z.object({
  id: idParam,
  /** '' : the key's own comment, or its type. */
  name: textAsTyped(SSH_KEY_NAME_MAX).optional().default(''),
  /** OpenSSH's one line (the .pub file): type, key, optional comment. */
  key: textAsTyped(SSH_KEY_TEXT_MAX),
  /** The FTP account it is for; '' or absent: the service's own login. */
  ftpId: z
    .union([z.literal(''), idParam])
    .optional()
    .default(''),
});
export type SshKeyAddParams = z.input<typeof sshKeyAddParamsSchema>;
export const sshKeyParamsSchema = z.object({ id: idParam, kid: idParam });
export const sshKeyOneDataSchema = z.object({ key: sshKeySchema });
export type SshKeyOneData = z.infer<typeof sshKeyOneDataSchema>;
