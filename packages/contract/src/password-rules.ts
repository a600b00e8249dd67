/** Password generation shared by every password form (mail, FTP, databases). Zod-free. */

export const GENERATED_PASSWORD_LENGTH = 14;
export const PASSWORD_SYMBOLS = '!#$%&*+-=?@^_';

/** 14 characters with at least one lower, one upper, one digit and one symbol. */
export function generatePassword(random: (max: number) => number): string {
  const sets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', PASSWORD_SYMBOLS];
  const all = sets.join('');
  const chars = sets.map((set) => set[random(set.length)] as string);
  while (chars.length < GENERATED_PASSWORD_LENGTH) chars.push(all[random(all.length)] as string);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
