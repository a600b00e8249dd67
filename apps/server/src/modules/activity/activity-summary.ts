import type { ActivityFieldChange } from '@panel247/contract/activity';

/**
 * The call's name in the log: its path without the resource and the ids, e.g.
 * `service/:id/dns/:dnsZoneId/save/` → `dns/save`, `domain/:id/toggle/block/` → `toggle/block`.
 */
export function actionOfRoute(url: string): string {
  const segments = url.split('/').filter((segment) => segment !== '' && !segment.startsWith(':'));
  const rest = segments.length > 1 ? segments.slice(1) : segments;
  return rest.join('/').slice(0, 64);
}

/**
 * Parameters never written to the log: anything that may be a password, a key, a code or a
 * token, and the large texts (a zone file, a file's contents, a certificate). Matched on the name
 * so that a field added later under such a name is left out too.
 */
const SECRET_OR_BULK =
  /pass|secret|token|code|key|cert|captcha|credential|signature|otp|assertion|attestation|challenge|response|^text$|content|^data$|body|file/i;

const MAX_FIELDS = 8;
const MAX_VALUE = 120;

function shown(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE - 1)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    return shown(value.join(', '));
  }
  return undefined;
}

/**
 * What a change sent, when its service said nothing more precise: the call's own fields (not the
 * ids, which the entry names already, nor the language), each as an "after" value.
 */
export function changesFromParams(params: unknown, idFields: readonly string[]): ActivityFieldChange[] {
  if (typeof params !== 'object' || params === null) return [];
  const changes: ActivityFieldChange[] = [];
  for (const [field, value] of Object.entries(params)) {
    if (field === 'id' || field === 'language' || idFields.includes(field) || SECRET_OR_BULK.test(field)) continue;
    const after = shown(value);
    if (after === undefined || after === '') continue;
    changes.push({ field, before: null, after });
    if (changes.length === MAX_FIELDS) break;
  }
  return changes;
}

/** Only what differs, both sides shown the same way (a service's own before and after). */
export function changedFields(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): ActivityFieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: ActivityFieldChange[] = [];
  for (const field of fields) {
    if (SECRET_OR_BULK.test(field)) continue;
    const b = before ? (shown(before[field]) ?? null) : null;
    const a = after ? (shown(after[field]) ?? null) : null;
    if (b !== a) changes.push({ field, before: b, after: a });
  }
  return changes.slice(0, MAX_FIELDS);
}

/** The path's own id names (`:dnsZoneId`), left out of the fields. */
export function idFieldsOfRoute(url: string): string[] {
  return url
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}
