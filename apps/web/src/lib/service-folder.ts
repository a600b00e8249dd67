/**
 * Folders of a service home as the FTP accounts and the sites take them (the server checks them
 * again): typed from the home, "/" being the home itself; errors are i18n keys.
 */

/** A folder segment the server takes: letters, digits, dot, dash, underscore; never "." or "..". */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;
const MAX_SEGMENTS = 16;

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
  const folder = folderToApi(value);
  if (folder === '') return null;
  const segments = folder.split('/');
  if (segments.length > MAX_SEGMENTS || !segments.every((segment) => SEGMENT.test(segment))) return invalidKey;
  return null;
}

/** The folder as shown: always from the home, "/" being the home itself. */
export function folderLabel(directorio: string): string {
  return `/${directorio.replace(/^\/+/, '')}`;
}
