import { z } from 'zod';
import { idParam, optionalInteger, textAsTyped } from './fields.ts';

/** A domain contact as the API shows it. */
export const contactSchema = z.object({
  id: z.number().int(),
  type: z.enum(['individual', 'organization']),
  orgName: z.string(),
  /** Display name: the organisation's name if any, else first and last name. */
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Identification number (VAT for organisations, NIF otherwise). */
  vat: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  countryKey: z.string(),
  stateKey: z.string(),
  cityKey: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const domainSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dns: z.object({ mode: z.enum(['mantenerDNS', 'defaultDNS', 'setDNS']), servers: z.array(z.string()) }),
  status: z.string(),
  expireTS: z.number().int(),
  /** Registration time, epoch seconds. */
  ts: z.number().int(),
  blocked: z.boolean(),
  transferBlock: z.boolean(),
  whoisPrivacy: z.boolean(),
  /** Which secret the registry uses for transfers: an auth code, or a transfer key. */
  authType: z.enum(['authcode', 'transferkey']),
  /** How DNSSEC keys are given to this registry: DS digests or public keys. */
  dnssecType: z.enum(['digest', 'pubkey']),
  /**
   * A transfer to another registrar the registry reported (its poll queue) while it is under way
   * or once done: its state, the registrar that asked for it, when, and when the registry acts
   * on it. null otherwise.
   */
  transferOut: z
    .object({
      state: z.enum(['pending', 'clientApproved', 'serverApproved']),
      requestedBy: z.string(),
      requestedAt: z.number().int(),
      actionAt: z.number().int(),
    })
    .nullable()
    .optional(),
});
export type Domain = z.infer<typeof domainSchema>;

export const domainDataSchema = z.object({
  domain: domainSchema,
  registrant: contactSchema,
  admin: contactSchema,
  billing: contactSchema,
  tech: contactSchema,
});
export type DomainData = z.infer<typeof domainDataSchema>;
export const domainOnlyDataSchema = z.object({ domain: domainSchema });

export const domainParamsSchema = z.object({ id: idParam });

export const dnsInitDataSchema = z.object({
  domainDNSs: z.array(z.string()),
  hasService: z.boolean(),
  defaultDNSs: z.array(z.string()),
  /**
   * The DS records at the registry while the domain uses the provider's name servers: moving away
   * from them with DS records left would make validating resolvers stop resolving the domain.
   * 0 otherwise (custom servers keep whatever DS their own operator gave).
   */
  dsRecords: z.number().int(),
  /** Whether this user may remove them, or publish the zone's (`domain_dnssec` action), in the same change. */
  canRemoveDs: z.boolean(),
  /**
   * The DS records of the hosted zone, signed here, that the registry does not have yet: moving
   * to the provider's name servers can publish them in the same change. 0: nothing to offer.
   */
  zoneDsRecords: z.number().int(),
});
export type DnsInitData = z.infer<typeof dnsInitDataSchema>;

const list = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
/** `dns[]`: the custom servers, in order; field errors come back as `dns[N]` (0-based). */
export const dnsEditParamsSchema = z.object({
  id: idParam,
  'default-ns': z.enum(['0', '1'], { error: 'validation.invalid' }).optional().default('0'),
  dns: list.optional().default([]),
  /**
   * Moving away from the provider's name servers while DS records exist: `remove` them in the same
   * change (the default), or `keep` them (only when asked for explicitly).
   */
  ds: z.enum(['remove', 'keep'], { error: 'validation.invalid' }).optional().default('remove'),
  /** With the provider's name servers: publish the signed hosted zone's DS in the same change ('1', the default). */
  publishDs: z.enum(['0', '1'], { error: 'validation.invalid' }).optional().default('1'),
});

export const glueRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ip: z.string(),
  ipv6: z.string(),
});
export type GlueRecord = z.infer<typeof glueRecordSchema>;
export const glueListDataSchema = z.object({ gluerecords: z.array(glueRecordSchema) });
export const glueCreateParamsSchema = z.object({
  id: idParam,
  /** A host label under the domain ("ns1") or the full name ("ns1.example.com"). */
  name: textAsTyped(253),
  ip: textAsTyped(15),
  ipv6: textAsTyped(45).optional().default(''),
});
export const glueSaveParamsSchema = z.object({
  id: idParam,
  glueId: idParam,
  ip: textAsTyped(15),
  ipv6: textAsTyped(45).optional().default(''),
});
export const glueParamsSchema = z.object({ id: idParam, glueId: idParam });

export const dnssecEntrySchema = z.object({
  id: z.number().int(),
  keytag: z.number().int(),
  algorithm: z.number().int(),
  digesttype: z.number().int(),
  digest: z.string(),
});
export type DnssecEntry = z.infer<typeof dnssecEntrySchema>;
export const dnssecListDataSchema = z.object({ dnssec: z.array(dnssecEntrySchema) });
export const dnssecCreateInitDataSchema = z.object({
  type: z.enum(['digest', 'pubkey']),
  algorithms: z.record(z.string(), z.string()),
  digestTypes: z.record(z.string(), z.string()),
  flags: z.record(z.string(), z.string()),
  protocols: z.record(z.string(), z.string()),
  /** Whether the domain's zone is served here with DNSSEC available (one-click DS import). */
  zoneKeysAvailable: z.boolean(),
});
/** Digest type: keytag, algorithm, digesttype, digest. Public-key type: flags, protocols, algorithm, digest (the key). */
export const dnssecCreateParamsSchema = z.object({
  id: idParam,
  keytag: optionalInteger('domain.error.keytag'),
  algorithm: optionalInteger('domain.error.algorithm'),
  digesttype: optionalInteger('domain.error.digest_type'),
  flags: optionalInteger('domain.error.flags'),
  protocols: optionalInteger('domain.error.protocol'),
  digest: textAsTyped(4096).optional().default(''),
});
export const dnssecCreateDataSchema = z.object({ dnssec: z.array(dnssecEntrySchema) });
export const dnssecParamsSchema = z.object({ id: idParam, dnssecId: idParam });

export const authCodeDataSchema = z.object({ authCode: z.string() });
export const transferKeyDataSchema = z.object({ transferkey: z.string() });

export const contactSaveParamsSchema = z.object({
  id: idParam,
  /** The role edited: registrant through owner/save, admin|billing|tech through contacts/save. */
  type: z.enum(['registrant', 'admin', 'billing', 'tech'], { error: 'validation.invalid' }),
  isOrg: z.enum(['0', '1'], { error: 'validation.invalid' }).optional().default('0'),
  firstName: textAsTyped(100).optional().default(''),
  lastName: textAsTyped(100).optional().default(''),
  identNumber: textAsTyped(30).optional().default(''),
  orgName: textAsTyped(200).optional().default(''),
  email: textAsTyped(254).optional().default(''),
  phone: textAsTyped(30).optional().default(''),
  postalCode: textAsTyped(10).optional().default(''),
  country: textAsTyped(2).optional().default(''),
  state: textAsTyped(10).optional().default(''),
  city: textAsTyped(100).optional().default(''),
  address: textAsTyped(255).optional().default(''),
  mode: z
    .enum(['only_contact', 'only_domain', 'all_contacts'], { error: 'validation.invalid' })
    .optional()
    .default('only_contact'),
});

export type ContactSaveParams = z.infer<typeof contactSaveParamsSchema>;

export const countryParamsSchema = z.object({
  country: textAsTyped(2).optional().default(''),
  state: textAsTyped(10).optional().default(''),
  city: textAsTyped(100).optional().default(''),
  postal_code: textAsTyped(10).optional().default(''),
});
export const countryDataSchema = z.object({
  /** ISO code → name in the request's language, sorted by name. */
  country: z.record(z.string(), z.string()),
  states: z.array(z.object({ key: z.string(), name: z.string() })),
  cities: z.array(z.object({ key: z.string(), name: z.string() })),
  /** Postal codes of the chosen city when the data set has them; empty means a free 1-5 character input. */
  postalCodes: z.array(z.string()),
  selected: z.object({ country: z.string(), state: z.string(), city: z.string(), postalCode: z.string() }),
  names: z.object({ state: z.string(), city: z.string() }),
});
export type CountryData = z.infer<typeof countryDataSchema>;

// The calls' shapes as types, so the web can import them without zod.
export type DomainOnlyData = z.infer<typeof domainOnlyDataSchema>;
export type DnsEditParams = z.infer<typeof dnsEditParamsSchema>;
export type GlueListData = z.infer<typeof glueListDataSchema>;
export type GlueCreateParams = z.infer<typeof glueCreateParamsSchema>;
export type GlueSaveParams = z.infer<typeof glueSaveParamsSchema>;
export type DnssecListData = z.infer<typeof dnssecListDataSchema>;
export type DnssecCreateInitData = z.infer<typeof dnssecCreateInitDataSchema>;
export type DnssecCreateParams = z.infer<typeof dnssecCreateParamsSchema>;
export type DnssecCreateData = z.infer<typeof dnssecCreateDataSchema>;
export type AuthCodeData = z.infer<typeof authCodeDataSchema>;
export type TransferKeyData = z.infer<typeof transferKeyDataSchema>;
export type CountryParams = z.infer<typeof countryParamsSchema>;
