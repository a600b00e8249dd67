// biome-ignore-all lint/suspicious/noControlCharactersInRegex: this module is the one place that names control characters

/**
 * The control-character rule, the one place that spells it out. Zod-free, so the login bundle and
 * every form can run it. A control character is C0 (U+0000–U+001F) or DEL (U+007F): CR and LF
 * split a log line, a config file or a header; NUL cuts a C string short.
 *
 * Three readings exist, each kept where it is used today:
 * - names, folders, hosts, passwords of services, every one-line value a daemon reads: none at all;
 * - one line of free text typed by a person (`line()`, `password()` in fields.ts): TAB allowed;
 * - multi-line text (messages, a textarea): TAB, LF and CR allowed.
 */

const CONTROL = {
  any: /[\u0000-\u001f\u007f]/,
  anyGlobal: /[\u0000-\u001f\u007f]/g,
  besideTab: /[\u0000-\u0008\u000a-\u001f\u007f]/,
  besideTabAndLineBreaks: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/,
} as const;

/** Whether a value holds any control character, TAB included (names, folders, hosts, service passwords). */
export function hasControlCharacters(value: string): boolean {
  return CONTROL.any.test(value);
}

/** Whether one line of free text holds a control character other than TAB. */
export function hasControlCharactersBesideTab(value: string): boolean {
  return CONTROL.besideTab.test(value);
}

/** Whether multi-line text holds a control character other than TAB, LF and CR. */
export function hasControlCharactersBesideTabAndLineBreaks(value: string): boolean {
  return CONTROL.besideTabAndLineBreaks.test(value);
}

/** The value with every control character replaced (for a log line or a page that shows text). */
export function replaceControlCharacters(value: string, replacement: string): string {
  return value.replace(CONTROL.anyGlobal, replacement);
}
