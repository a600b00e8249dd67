import { DEFAULT_LOGO_MINI_PATH, DEFAULT_LOGO_PATH } from '@panel247/contract/config';
import { DEFAULT_COLOR, LANGUAGES, type Language, THEME_COLORS, type ThemeColor } from '@panel247/contract/constants';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import type { BrandRow } from '../../db/schema.ts';
import { brandRepository } from './brand.repository.ts';

export interface Brand {
  id: number;
  company: string;
  color: ThemeColor;
  logo: string;
  logoMini: string;
  allowColorChange: boolean;
  defaultLanguage: Language;
  channel: string;
  contactEmail: string;
  webmailHost: string;
  webftpHost: string;
  phpmyadminHost: string;
  /** The brand's own site builder (its URL is https://{host}/); '' uses PANEL_SITEBUILDER_URL. */
  builderHost: string;
  sslHost: string;
}

function toBrand(row: BrandRow): Brand {
  return {
    id: row.id,
    company: row.company,
    color: (THEME_COLORS as readonly string[]).includes(row.color) ? (row.color as ThemeColor) : DEFAULT_COLOR,
    logo: row.logo || DEFAULT_LOGO_PATH,
    logoMini: row.logo_mini || DEFAULT_LOGO_MINI_PATH,
    allowColorChange: row.allow_color_change === 1,
    defaultLanguage: (LANGUAGES as readonly string[]).includes(row.default_language)
      ? (row.default_language as Language)
      : 'es',
    channel: row.channel,
    contactEmail: row.contact_email,
    webmailHost: row.webmail_host,
    webftpHost: row.webftp_host,
    phpmyadminHost: row.phpmyadmin_host,
    builderHost: row.builder_host,
    sslHost: row.ssl_host,
  };
}

/** Host names are compared without port and case; anything odd simply matches no brand. */
export function normaliseHost(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const host = value
    .trim()
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '');
  return /^[a-z0-9.-]{1,253}$/.test(host) ? host : undefined;
}

/** Distinct hosts whose brand is remembered: real brands' hosts are few, anything beyond is noise. */
export const BRAND_CACHE_HOSTS = 1000;

/**
 * Picks the brand of a request: by `_referer_` when given (the panel embedded under another
 * host), else by the Host header, else the default brand. Brands change rarely, so lookups are
 * cached for a short while. The key is whatever host a client sends, so the cache is bounded
 * (least recently used hosts go first): random Host headers cannot grow the heap.
 */
export class BrandService {
  private readonly cache: LRUCache<string, Brand>;

  constructor(
    private readonly db: Db,
    cacheMs = 30_000,
    maxHosts = BRAND_CACHE_HOSTS,
  ) {
    this.cache = new LRUCache({ max: maxHosts, ttl: cacheMs });
  }

  /** A brand changed (the console): this instance answers with it at once; others within the cache's time. */
  forget(): void {
    this.cache.clear();
  }

  /** How many hosts are remembered now (for tests of the bound). */
  get cachedHosts(): number {
    return this.cache.size;
  }

  async resolve(host: string | undefined, referer?: string): Promise<Brand> {
    let candidate = normaliseHost(host);
    if (referer) {
      try {
        candidate = normaliseHost(new URL(referer).host) ?? candidate;
      } catch {
        // Not a URL: keep the request's host.
      }
    }
    const key = candidate ?? '';
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row =
      (candidate ? await brandRepository.findByHost(this.db, candidate) : undefined) ??
      (await brandRepository.findDefault(this.db));
    if (!row) throw new Error('No brand configured: run the seed or `npm run panel -- brand add`');
    const brand = toBrand(row);
    this.cache.set(key, brand);
    return brand;
  }

  async byId(id: number): Promise<Brand> {
    const row = await brandRepository.findById(this.db, id);
    if (!row) throw new Error(`Brand ${id} not found`);
    return toBrand(row);
  }
}
