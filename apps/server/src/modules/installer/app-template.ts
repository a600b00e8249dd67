import bcrypt from 'bcryptjs';

/**
 * Config-file templates of the application packages: `{{ cfg.site_title }}`, `{{ db.password }}`,
 * `{{ cfg.admin_password|hash }}` (a bcrypt `$2y$` hash PHP's password_verify accepts, so an
 * application's admin password is never written in clear). Every value is escaped for the file's
 * syntax, and a template author puts each placeholder inside the quotes that syntax needs.
 */

export type TemplateSyntax = 'php' | 'json' | 'html';

const PLACEHOLDER = /\{\{\s*([a-z]+\.[a-z][a-z0-9_]*)\s*(?:\|\s*(hash)\s*)?\}\}/g;
const ANY_BRACES = /\{\{[^}]*\}\}/g;

export interface Placeholder {
  name: string;
  filter: 'hash' | null;
}

/** The placeholders of a template; anything else between double braces is a mistake of the package. */
export function templatePlaceholders(text: string): Placeholder[] {
  const found = [...text.matchAll(PLACEHOLDER)].map((match) => ({
    name: match[1] as string,
    filter: match[2] === 'hash' ? ('hash' as const) : null,
  }));
  const all = text.match(ANY_BRACES) ?? [];
  if (all.length !== found.length) throw new Error(`malformed placeholder among ${all.join(' ')}`);
  return found;
}

const ESCAPE: Record<TemplateSyntax, (value: string) => string> = {
  // Inside '…' PHP reads only \\ and \' as escapes.
  php: (value) => value.replace(/\\/g, '\\\\').replace(/'/g, "\\'"),
  json: (value) => JSON.stringify(value).slice(1, -1),
  html: (value) =>
    value.replace(
      /[&<>"']/g,
      (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
    ),
};

/** A bcrypt hash under PHP's `$2y$` prefix (the same algorithm as bcryptjs's `$2b$`). */
export async function phpPasswordHash(value: string): Promise<string> {
  return (await bcrypt.hash(value, 10)).replace(/^\$2b\$/, '$2y$');
}

/** Fills a template; every placeholder must have a value (the catalogue checked the names at load). */
export async function renderTemplate(
  text: string,
  syntax: TemplateSyntax,
  values: Map<string, string>,
): Promise<string> {
  const filled = new Map<string, string>();
  for (const { name, filter } of templatePlaceholders(text)) {
    const key = `${name}|${filter ?? ''}`;
    if (filled.has(key)) continue;
    const value = values.get(name);
    if (value === undefined) throw new Error(`no value for ${name}`);
    filled.set(key, ESCAPE[syntax](filter === 'hash' ? await phpPasswordHash(value) : value));
  }
  return text.replace(
    PLACEHOLDER,
    (_match, name: string, filter?: string) => filled.get(`${name}|${filter ?? ''}`) as string,
  );
}
