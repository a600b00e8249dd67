/**
 * Folders of a service home as the FTP accounts and the sites take them (the server checks them
 * again): typed from the home, "/" being the home itself; errors are i18n keys.
 */

import { isServiceFolder } from '@panel247/contract/hosting-rules';

/** The folder as the API wants it: relative to the service home, without slashes at the ends. */
export function folderToApi(value: string): string {
  return value.trim().replace(/^\/+|\/+$/g, '');
}

/**
 * "/" is the home itself; below it, segments of letters, digits and . _ - (no "..", no "//").
 * `invalidKey` is the message of a folder the server would refuse.
 */
export function serviceFolderError(value: string, invalidKey: string): string | null {
  if (value.trim() === '') return 'validation.required';
  return isServiceFolder(folderToApi(value)) ? null : invalidKey;
}

/** The folder as shown: always from the home, "/" being the home itself. */
export function folderLabel(directorio: string): string {
  return `/${directorio.replace(/^\/+/, '')}`;
}
