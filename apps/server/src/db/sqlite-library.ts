import { createRequire } from 'node:module';
import type SQLiteDatabase from 'better-sqlite3';

/**
 * better-sqlite3, loaded at its first use: a process on PostgreSQL (a node agent above all) need
 * not hold the native addon.
 */
export function sqliteLibrary(): typeof SQLiteDatabase {
  return createRequire(import.meta.url)('better-sqlite3') as typeof SQLiteDatabase;
}
