/** Two-factor constants the login page needs without zod (see constants.ts). */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
export const RECOVERY_CODE_COUNT = 10;
