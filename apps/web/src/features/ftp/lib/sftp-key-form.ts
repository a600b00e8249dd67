/** The login option of the service's own login (Select keeps '' for "nothing chosen"). */
export const SERVICE_LOGIN = 'service';

/** The SSH key form's values; `ftpId` is an FTP account's id, SERVICE_LOGIN, or '' (none chosen yet). */
export interface SftpKeyValues {
  ftpId: string;
  name: string;
  key: string;
}

/**
 * What the browser can tell before sending: a key is there, on one line, and is not the private
 * half. The type, size and fingerprint are the server's to check (it reads the key).
 */
export function validateSftpKey(values: SftpKeyValues): Partial<Record<keyof SftpKeyValues, string>> {
  const errors: Partial<Record<keyof SftpKeyValues, string>> = {};
  if (values.ftpId === '') errors.ftpId = 'sftp.error_login';
  const key = values.key.trim();
  if (key === '') errors.key = 'validation.required';
  else if (key.includes('PRIVATE KEY')) errors.key = 'sftp.error_private';
  else if (/[\r\n]/.test(key)) errors.key = 'sftp.error_one_line';
  return errors;
}

/** What the add call gets: the service's own login is an empty `ftpId`. */
export function sftpKeyPayload(values: SftpKeyValues) {
  return {
    ftpId: values.ftpId === SERVICE_LOGIN ? '' : values.ftpId,
    name: values.name.trim(),
    key: values.key.trim(),
  };
}

/** Whether the service has as many keys as its plan allows (null: no limit). */
export function keyLimitReached(count: number, maxKeys: number | null): boolean {
  return maxKeys !== null && count >= maxKeys;
}
