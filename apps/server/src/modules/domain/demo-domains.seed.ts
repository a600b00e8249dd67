import type { Db } from '../../db/database.ts';
import { decodePublicKey, dnskeyRdata, dsDigestSha256, keyTag } from './dnssec-keys.ts';
import { domainRepository } from './domain.repository.ts';
import type { DomainService } from './domain.service.ts';

/**
 * shop-demo.test's registry takes public keys (ECDSA P-256, algorithm 13): its KSK and ZSK, whose
 * DS the panel computes the way it does for a key typed in the DNSSEC dialog.
 */
const SHOP_KEYS = [
  { flags: 257, key: 'FWySjzTdy7ZWvA7m2YbyWgnLqflTtSegwB0P0DgHGI0lh4yH4EQ3edf1rm0fQ7jGCY3I4Ff9191YDMh2SM6iXw==' },
  { flags: 256, key: 'BhQMwMLNzlzDT92CQucpUJ6k1g05+pxHriObOy5JWAGZRy9RBWndo46OPBdtkBJL8pZpk46Gn4oleBcIqfButA==' },
];

const DEMO_CONTACTS = {
  company: {
    is_org: 1,
    org_name: 'Demo Hosting S.L.',
    first_name: 'Laura',
    last_name: 'Martí Puig',
    ident_number: 'B12345674',
    email: 'legal@demo.test',
    phone: '+34.931234567',
    address: 'Carrer de la Pau 12',
    postal_code: '08001',
    city: 'Barcelona',
    state: 'B',
    country: 'ES',
  },
  person: {
    is_org: 0,
    org_name: '',
    first_name: 'Ana',
    last_name: 'García López',
    ident_number: '12345678Z',
    email: 'ana@demo.test',
    phone: '+34.912345678',
    address: 'Calle Mayor 1',
    postal_code: '28013',
    city: 'Madrid',
    state: 'M',
    country: 'ES',
  },
};

/**
 * Every card of the domain view populated for demo.test (provider name servers, glue, DS digests,
 * an auth code) and shop-demo.test (its own name servers, glue, DS records of its public keys, a
 * transfer key). Runs only when the domains do not exist yet.
 */
export async function seedDemoDomains(
  db: Db,
  domains: DomainService,
  accountId: number,
  ids: { demo: number; shop: number },
  now: number,
): Promise<void> {
  if (await domainRepository.find(db, ids.demo)) return;
  await domains.ensureDomain(ids.demo, 'demo.test', accountId, {
    hasService: true,
    authType: 'authcode',
    dnssecType: 'digest',
  });
  await domains.ensureDomain(ids.shop, 'shop-demo.test', accountId, {
    hasService: false,
    authType: 'transferkey',
    dnssecType: 'pubkey',
  });
  await db.transaction().execute(async (trx) => {
    await domainRepository.setNameservers(trx, ids.shop, ['ns1.demo.test', 'ns2.demo.test']);
    await domainRepository.insertGlue(trx, {
      resource_id: ids.demo,
      name: 'ns1.demo.test',
      ipv4: '192.0.2.53',
      ipv6: '2001:db8::53',
    });
    await domainRepository.insertGlue(trx, {
      resource_id: ids.demo,
      name: 'ns2.demo.test',
      ipv4: '192.0.2.54',
      ipv6: '',
    });
    await domainRepository.insertDs(trx, {
      resource_id: ids.demo,
      keytag: 2371,
      algorithm: 13,
      digest_type: 2,
      digest: '1f987cc6583e92df0890718c42b10d2a51ed1b3b1b3b6c4f0e5b0a8b1f3b9b3c',
    });
    await domainRepository.insertDs(trx, {
      resource_id: ids.demo,
      keytag: 2371,
      algorithm: 13,
      digest_type: 1,
      digest: 'a3c1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5',
    });
    for (const [name, ipv4, ipv6] of [
      ['ns1.shop-demo.test', '198.51.100.53', '2001:db8:5::53'],
      ['ns2.shop-demo.test', '198.51.100.54', ''],
    ] as const) {
      await domainRepository.insertGlue(trx, { resource_id: ids.shop, name, ipv4, ipv6 });
    }
    for (const { flags, key } of SHOP_KEYS) {
      const rdata = dnskeyRdata(flags, 3, 13, decodePublicKey(key) as Buffer);
      await domainRepository.insertDs(trx, {
        resource_id: ids.shop,
        keytag: keyTag(rdata),
        algorithm: 13,
        digest_type: 2,
        digest: dsDigestSha256('shop-demo.test', rdata),
      });
    }
    const company = await domainRepository.insertContact(trx, {
      account_id: accountId,
      created_at: now,
      ...DEMO_CONTACTS.company,
    });
    const person = await domainRepository.insertContact(trx, {
      account_id: accountId,
      created_at: now,
      ...DEMO_CONTACTS.person,
    });
    for (const id of [ids.demo, ids.shop]) {
      await domainRepository.assignContact(trx, id, ['registrant'], company);
      await domainRepository.assignContact(trx, id, ['admin', 'billing', 'tech'], person);
    }
  });
}
