/**
 * Parses an application/x-www-form-urlencoded body. Keys ending in `[]` (like `dns[]`) and keys
 * repeated several times become arrays under the bare name; everything else stays a string.
 */
export function parseFormBody(body: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = isList ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
