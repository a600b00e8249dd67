/**
 * Name and folder rules of a hosting service, shared by the server's checks, the web driver (which
 * checks again before a value reaches a config file) and the web forms. Zod-free.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** One or more RFC 1123 labels in front of the service's domain (at most 190, so the host fits 253). */
const SUBDOMAIN = new RegExp(`^(?=.{1,190}$)${LABEL}(?:\\.${LABEL})*$`);
/** A folder segment: letters, digits and . _ - (what a shell, nginx and ProFTPD take as is); never "." or "..". */
const FOLDER_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;
/** A segment of a redirection path: the folder characters plus "~" (unreserved in URLs); never "." or "..". */
const PATH_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,64}$/;
/** Deepest folder or path taken: deeper ones are a typing mistake more often than a real layout. */
export const MAX_SEGMENTS = 16;

function segmentsMatch(value: string, segment: RegExp): boolean {
  const segments = value.split('/');
  return segments.length <= MAX_SEGMENTS && segments.every((part) => segment.test(part));
}

/** A site's or redirection's subdomain, lower-cased ('' — the main domain — is the caller's case). */
export function isSubdomainName(label: string): boolean {
  return SUBDOMAIN.test(label);
}

/** A folder of the service home, relative and without slashes at the ends; '' is the home itself. */
export function isServiceFolder(relative: string): boolean {
  return relative === '' || segmentsMatch(relative, FOLDER_SEGMENT);
}

/** A redirection path without slashes at the ends; '' is the site's root. */
export function isRedirectionPath(path: string): boolean {
  return path === '' || segmentsMatch(path, PATH_SEGMENT);
}

/** A redirection's target as typed: http(s), a host, and only URL-safe characters after it. */
const URL_TEXT = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#][A-Za-z0-9._~:/?#@!&()*+,=%-]*)?$/;

/**
 * A redirection URL the server takes: the characters above (nothing that could break out of an
 * nginx `return`), and a real http(s) URL with a host and no credentials in it.
 */
export function isRedirectionUrl(text: string): boolean {
  if (!URL_TEXT.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username;
  } catch {
    return false;
  }
}
