import type { DkimAlgorithm } from '@panel247/contract/mail-auth-rules';

/**
 * The DKIM signer: which keys sign the mail leaving from each domain. The panel database is the
 * source of truth (the keys sealed there); the driver gives the signer the keys it signs with,
 * after each change and on `sync`. Domains are in punycode and selectors validated; the driver
 * checks both again before they name a file.
 */
export interface SigningKey {
  selector: string;
  algorithm: DkimAlgorithm;
  /** PEM. */
  privateKey: string;
}

export interface DkimDriver {
  readonly kind: 'embedded' | 'opendkim';
  /** From now on the domain's mail is signed with exactly these keys (none: no longer signed). */
  setSigningKeys(domain: string, keys: SigningKey[]): Promise<void>;
  /**
   * Makes the signer hold exactly these domains and keys; answers the domains that differed
   * (missing, extra or other selectors). A dry run only compares.
   */
  sync(domains: Map<string, SigningKey[]>, options: { dryRun: boolean }): Promise<string[]>;
}
