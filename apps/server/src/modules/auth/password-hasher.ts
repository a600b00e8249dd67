import type { Options } from '@node-rs/argon2';

// Loaded at the first hash: the node agent never hashes a login's password on most servers, and
// the native module costs a few MB of its idle memory (see bench:start).
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => {
  argon2 ??= import('@node-rs/argon2');
  return argon2;
};

/** argon2id with OWASP's minimum: 19 MiB, 2 passes, 1 lane. */
// `Algorithm` is an ambient const enum (unusable with verbatimModuleSyntax): 2 is Argon2id.
const OPTIONS: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, OPTIONS);
}

// A real hash of a random password: verifying against it costs what a real check costs, so a
// missing account answers as slowly as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  const { hash, verify } = await loadArgon2();
  if (!passwordHash) {
    dummyHash ??= hash(crypto.randomUUID(), OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
