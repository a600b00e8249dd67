import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { encode } from 'cbor2';

/**
 * A software authenticator for API tests: one P-256 credential (ES256) whose attestation ("none")
 * and assertions are built here byte for byte as the WebAuthn spec lays them out (CBOR by cbor2,
 * signatures by node:crypto), so the server's library checks real answers. No maintained npm
 * package makes fresh responses for a given challenge (fido2-helpers ships fixed vectors).
 * Overrides forge what a phishing page or a cloned authenticator would send.
 */
export interface Forgery {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  userVerified?: boolean;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
// cbor2 writes a plain Uint8Array as a CBOR byte string; a Buffer (a subclass) would not be one.
const bytes = (data: Buffer) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** Counts up at each assertion; `counterStep: 0` is an authenticator that keeps no counter. */
  counter = 0;

  constructor(
    readonly origin: string,
    private readonly options: { userVerified?: boolean; counterStep?: number } = {},
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key of the public key: kty EC2, alg ES256, crv P-256, x, y. */
  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, bytes(Buffer.from(jwk.x as string, 'base64url'))],
        [-3, bytes(Buffer.from(jwk.y as string, 'base64url'))],
      ]),
    );
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private flags(forgery: Forgery): number {
    const verified = forgery.userVerified ?? this.options.userVerified ?? true;
    return FLAG_UP | (verified ? FLAG_UV : 0);
  }

  /** `navigator.credentials.create` answered: RegistrationResponseJSON as the JSON text the client posts. */
  create(options: { challenge: string; rp: { id?: string } }, forgery: Forgery = {}): string {
    const rpId = forgery.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authData(rpId, this.flags(forgery) | FLAG_AT, this.counter, attested);
    const clientData = this.clientData(
      forgery.type ?? 'webauthn.create',
      forgery.challenge ?? options.challenge,
      forgery.origin ?? this.origin,
    );
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(encode({ fmt: 'none', attStmt: {}, authData: bytes(authData) })),
        transports: ['internal'],
      },
    });
  }

  /** `navigator.credentials.get` answered: AuthenticationResponseJSON as JSON text. */
  get(options: { challenge: string; rpId?: string }, forgery: Forgery = {}): string {
    const rpId = forgery.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    if (forgery.counter === undefined) this.counter += this.options.counterStep ?? 1;
    const authData = this.authData(rpId, this.flags(forgery), forgery.counter ?? this.counter);
    const clientData = this.clientData(
      forgery.type ?? 'webauthn.get',
      forgery.challenge ?? options.challenge,
      forgery.origin ?? this.origin,
    );
    // ECDSA over authenticatorData || sha256(clientDataJSON), DER-encoded as WebAuthn wants.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.keys.privateKey);
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(Buffer.from('p247')),
      },
    });
  }
}
