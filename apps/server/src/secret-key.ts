import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.ts';

/**
 * The panel's master secret (ALTCHA signatures, encrypted passwords of later features). From
 * PANEL_SECRET_KEY when set — required when several instances share a database — else generated
 * once into dataDir/secret.key, readable by the panel's user only.
 */
export function loadSecretKey(config: AppConfig): Buffer {
  if (config.secretKey) return Buffer.from(config.secretKey, 'hex');
  const file = path.join(config.dataDir, 'secret.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/i.test(hex)) return Buffer.from(hex, 'hex');
    throw new Error(`${file} does not hold 64 hexadecimal characters`);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}
