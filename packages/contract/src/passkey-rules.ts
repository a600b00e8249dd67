/** Passkey constants the web needs without zod (see constants.ts). */
export const PASSKEY_NAME_MAX = 64;
