/**
 * Control characters are refused in anything typed into the domain forms, before it is trimmed:
 * a trailing CR/LF must not slip through as "whitespace".
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const CONTROL = /[\u0000-\u001f\u007f]/;
