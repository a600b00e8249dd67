import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The operator's kit: every daemon's configuration, as templates with @NAME@ placeholders. */
export const DEPLOY = path.resolve(import.meta.dirname, '../../deploy');

const PLACEHOLDER = /@([A-Z][A-Z0-9_]*)@/g;

/** The placeholders a template's text names, each once, in order of appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string))];
}

/**
 * `deploy/<template>` (a path under deploy/, or an absolute one) with every @NAME@ replaced by its
 * value. A placeholder left without a value is an error: a daemon must never start on a
 * configuration with a hole in it. Values the template does not name are ignored, so one set of
 * values can fill a daemon's several files.
 */
export function fillDeployTemplate(template: string, values: Record<string, string>): string {
  const text = readFileSync(path.resolve(DEPLOY, template), 'utf8');
  const missing = placeholdersOf(text).filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new Error(`${template}: ${missing.map((name) => `@${name}@`).join(', ')} not filled`);
  return text.replace(PLACEHOLDER, (_match, name: string) => values[name] as string);
}

/**
 * Postfix's SQL map files (deploy/postfix-mail/<map>.cf.template), each rendered beside main.cf:
 * the hosted domains, mailboxes, aliases, the senders a login may use, and the panel's domains
 * served by another server (their mail is deferred here, not refused).
 */
export const POSTFIX_MAPS = ['domains', 'mailboxes', 'aliases', 'senders', 'elsewhere'] as const;
