import {
  ALIAS_MAX_TARGETS,
  ALIAS_TARGETS_MAX_LENGTH,
  cleanTargets,
  FORWARD_MAX_TARGETS,
  isAliasTarget,
  targetsOverLimit,
} from '@panel247/contract/mail-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import { FieldErrors } from '../../errors.ts';

/** Forwarding targets: addresses as an alias's, at most FORWARD_MAX_TARGETS, never the mailbox itself. */
export function forwardTargets(typed: string[], own: string): string[] {
  if (typed.some(hasControlCharacters)) throw FieldErrors.one('forward', 'validation.control_chars');
  const targets = [...new Set(cleanTargets(typed).map((t) => t.toLowerCase()))];
  const bad = targets.find((t) => !isAliasTarget(t));
  if (bad) throw FieldErrors.one('forward', 'mail.error.target', { target: bad.slice(0, 80) });
  if (targets.includes(own)) throw FieldErrors.one('forward', 'mail.error.forward_self');
  if (targets.length > FORWARD_MAX_TARGETS)
    throw FieldErrors.one('forward', 'mail.error.forward_count', { max: String(FORWARD_MAX_TARGETS) });
  return targets;
}

/** An alias's targets: at least one, each an address, distinct, within the count and length limits. */
export function aliasTargets(typed: string[]): string[] {
  if (typed.some(hasControlCharacters)) throw FieldErrors.one('target', 'validation.control_chars');
  const targets = cleanTargets(typed).map((t) => t.toLowerCase());
  if (targets.length === 0) throw FieldErrors.one('target', 'mail.error.target_required');
  const bad = targets.find((t) => !isAliasTarget(t));
  if (bad) throw FieldErrors.one('target', 'mail.error.target', { target: bad.slice(0, 80) });
  const distinct = [...new Set(targets)];
  const over = targetsOverLimit(distinct);
  if (over === 'count') throw FieldErrors.one('target', 'mail.error.targets_count', { max: String(ALIAS_MAX_TARGETS) });
  if (over === 'length')
    throw FieldErrors.one('target', 'mail.error.targets_length', { max: String(ALIAS_TARGETS_MAX_LENGTH) });
  return distinct;
}
