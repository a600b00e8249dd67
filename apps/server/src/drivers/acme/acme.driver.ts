import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as acme from 'acme-client';
import { DaemonError } from '../../errors.ts';

/** How a CA checks that we control a name: a file served over HTTP, or a TXT record. */
export type ChallengeType = 'http-01' | 'dns-01';

/**
 * Puts a challenge's answer where the CA looks for it and takes it away afterwards: HTTP-01 a file
 * nginx serves at /.well-known/acme-challenge/<token>, DNS-01 a TXT at _acme-challenge.<name>.
 */
export interface ChallengeResponder {
  readonly type: ChallengeType;
  /** `value`: the key authorization for HTTP-01, its digest (the TXT content) for DNS-01. */
  present(name: string, token: string, value: string): Promise<void>;
  remove(name: string, token: string, value: string): Promise<void>;
}

/** The steps of an order a customer sees, in this order (installing is the caller's). */
export type OrderStep = 'ordered' | 'validating' | 'issued';

export interface IssuedCertificate {
  /** The leaf certificate alone. */
  certPem: string;
  /** The intermediates the CA sent after it ('' when none). */
  chainPem: string;
  /** The certificate's new private key (ECDSA P-256), PKCS#8 PEM. */
  keyPem: string;
}

export interface AcmeAccount {
  directoryUrl: string;
  /** The account's private key, PEM (made with `createAccountKey`). */
  accountKeyPem: string;
  /** The contact the CA writes to about expiring certificates and its terms. */
  email?: string;
  /** External Account Binding (ZeroSSL, Google Trust Services). */
  externalAccountBinding?: { kid: string; hmacKey: string };
}

/** An ACME account key: ECDSA P-256 (small JWS signatures; every CA takes it). */
export async function createAccountKey(): Promise<string> {
  return (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
}

/**
 * The CA the directory's own HTTPS listener must be trusted with, besides the public roots (a
 * test CA such as Pebble). acme-client sends every request through one axios instance, so this
 * is set for the process, from the configuration.
 */
export function trustDirectoryCa(caPem: string): void {
  acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, caPem], keepAlive: true });
}

/**
 * How often acme-client tries a request again after a network error or a 5xx/429 from the CA,
 * and the wait (this many seconds times the attempt, unless the CA says Retry-After): process-wide,
 * like its axios instance. Its defaults (5 tries, 5 s steps) wait 75 s for a CA that is down.
 */
export function setRequestRetries(attempts: number, delaySeconds: number): void {
  const settings = (acme.axios.defaults as { acmeSettings?: Record<string, number> }).acmeSettings;
  if (settings) {
    settings.retryMaxAttempts = attempts;
    settings.retryDefaultDelay = delaySeconds;
  }
}

/** `trustDirectoryCa` with the CA read from a file (PANEL_ACME_DIRECTORY_CA_FILE). */
export function trustDirectoryCaFile(file: string): void {
  trustDirectoryCa(readFileSync(file, 'utf8'));
}

function splitChain(fullChain: string): { certPem: string; chainPem: string } {
  const blocks = fullChain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new DaemonError('acme.error.ca', 'the CA answered no certificate');
  return { certPem: `${blocks[0]}\n`, chainPem: blocks.length > 1 ? `${blocks.slice(1).join('\n')}\n` : '' };
}

/** The CA's problem document type (`urn:ietf:params:acme:error:caa`) of an acme-client error, if any. */
export function problemType(error: unknown): string | undefined {
  const detail = `${(error as { detail?: string }).detail ?? ''} ${error instanceof Error ? error.message : String(error)}`;
  return /urn:ietf:params:acme:error:([a-zA-Z]+)/.exec(detail)?.[1];
}

/**
 * Orders certificates from an ACME CA (RFC 8555) through acme-client: the account (made or found
 * by its key), the order, one challenge per name answered by the responder, the finalisation with
 * a new key's CSR, and the certificate. No protocol code here: acme-client signs and sends, and
 * waits for the CA with its own back-off.
 */
export class AcmeDriver {
  constructor(private readonly account: AcmeAccount) {}

  private client(): acme.Client {
    return new acme.Client({
      directoryUrl: this.account.directoryUrl,
      accountKey: this.account.accountKeyPem,
      ...(this.account.externalAccountBinding ? { externalAccountBinding: this.account.externalAccountBinding } : {}),
      backoffAttempts: 20,
      backoffMin: 200,
      backoffMax: 3000,
    });
  }

  async issue(
    names: string[],
    responder: ChallengeResponder,
    onStep: (step: OrderStep) => Promise<void> = async () => {},
  ): Promise<IssuedCertificate> {
    const client = this.client();
    try {
      await client.createAccount({
        termsOfServiceAgreed: true,
        ...(this.account.email ? { contact: [`mailto:${this.account.email}`] } : {}),
      });
      const order = await client.createOrder({ identifiers: names.map((value) => ({ type: 'dns', value })) });
      await onStep('ordered');
      const authorizations = await client.getAuthorizations(order);
      const presented: { name: string; token: string; value: string }[] = [];
      try {
        await onStep('validating');
        for (const authorization of authorizations) {
          // a name the CA already trusts us with needs no new challenge
          if (authorization.status === 'valid') continue;
          const challenge = authorization.challenges.find((candidate) => candidate.type === responder.type);
          if (!challenge)
            throw new DaemonError('acme.error.no_challenge', `${authorization.identifier.value}: no ${responder.type}`);
          const value = await client.getChallengeKeyAuthorization(challenge);
          // a wildcard's challenge is the base name's (RFC 8555 §7.1.3)
          const name = authorization.identifier.value;
          await responder.present(name, challenge.token, value);
          presented.push({ name, token: challenge.token, value });
          await client.completeChallenge(challenge);
          await client.waitForValidStatus(authorization);
        }
      } finally {
        for (const { name, token, value } of presented) await responder.remove(name, token, value).catch(() => {});
      }
      const [key, csr] = await acme.crypto.createCsr(
        { commonName: names[0] as string, altNames: names },
        await acme.crypto.createPrivateEcdsaKey('P-256'),
      );
      const finalized = await client.finalizeOrder(order, csr);
      const fullChain = await client.getCertificate(finalized);
      await onStep('issued');
      return { ...splitChain(fullChain), keyPem: key.toString() };
    } catch (error) {
      if (error instanceof DaemonError) throw error;
      // A network error that outlives acme-client's retries comes out of its axios interceptor as
      // a TypeError (5.4.0 validates the missing response): that one means the CA was not reached.
      const lostResponse = error instanceof TypeError && /reading 'config'/.test(error.message);
      const { code, message } = lostResponse
        ? { code: 'EUNREACHABLE', message: 'no answer from the CA' }
        : (error as { code?: string; message?: string });
      throw new DaemonError('acme.error.ca', [code, message].filter(Boolean).join(' ').slice(0, 500) || String(error));
    }
  }
}
