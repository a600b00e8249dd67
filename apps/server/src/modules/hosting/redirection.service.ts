import type {
  Redirection,
  RedirectionCreateParams,
  RedirectionListParams,
  RedirectionSaveParams,
} from '@panel247/contract/hosting';
import { isRedirectionPath, isRedirectionUrl } from '@panel247/contract/hosting-rules';
import { hasControlCharacters } from '@panel247/contract/text-rules';
import type { Db } from '../../db/database.ts';
import { listPageOf } from '../../db/list-query.ts';
import { type FieldError, FieldErrors, ForbiddenError, NotFoundError } from '../../errors.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import type { Actor } from '../auth/actor.ts';
import { hostingRepository } from './hosting.repository.ts';
import type { HostingChanges } from './hosting-changes.ts';
import { checkSubdomain, hostOf } from './hosting-input.ts';

/** What a redirection's create and save forms share: the target and how it is reached. */
type RedirectionFields = Omit<RedirectionSaveParams, 'id' | 'rid'>;

/** http(s), a host, an optional port, then path/query/fragment characters without quotes, $, ;, braces or spaces. */

type RedirectionRow = NonNullable<Awaited<ReturnType<typeof hostingRepository.redirection>>>;

/** A hosting service's redirections (301, 302 or a frame page) from a host and path to a URL. */
export class RedirectionService {
  constructor(
    private readonly db: Db,
    private readonly changes: HostingChanges,
    private readonly now: () => number,
  ) {}

  /** `recurso` as typed ('', 'shop', '/shop/') → '/' or '/shop'. */
  private path(value: string, errors: FieldError[]): string {
    if (hasControlCharacters(value)) {
      errors.push({ field: 'recurso', messageKey: 'validation.control_chars' });
      return '/';
    }
    const trimmed = value.trim().replace(/^\/+|\/+$/g, '');
    if (trimmed === '') return '/';
    if (!isRedirectionPath(trimmed)) errors.push({ field: 'recurso', messageKey: 'hosting.error.path' });
    return `/${trimmed}`;
  }

  private redirectionFields(params: RedirectionFields, errors: FieldError[]) {
    const url = params.urlRedir.trim();
    if (hasControlCharacters(params.urlRedir))
      errors.push({ field: 'urlRedir', messageKey: 'validation.control_chars' });
    else if (url === '') errors.push({ field: 'urlRedir', messageKey: 'validation.required' });
    else if (!isRedirectionUrl(url)) errors.push({ field: 'urlRedir', messageKey: 'hosting.error.url' });
    const frame = params.redirType === 'frame';
    const texts = { iframeTitle: '', iframeDescription: '', iframeKeywords: '' };
    for (const field of ['iframeTitle', 'iframeDescription', 'iframeKeywords'] as const) {
      if (hasControlCharacters(params[field])) errors.push({ field, messageKey: 'validation.control_chars' });
      else if (frame) texts[field] = params[field].trim();
    }
    return {
      url,
      type: params.redirType,
      iframe_title: texts.iframeTitle,
      iframe_description: texts.iframeDescription,
      iframe_keywords: texts.iframeKeywords,
    };
  }

  private toRedirection(row: RedirectionRow, domain: string): Redirection {
    const host = hostOf(row.subdomain, domain);
    return {
      id: row.id,
      origin: row.path === '/' ? host : `${host}${row.path}`,
      url: row.url,
      redirType: row.type === 'frame' ? 'frame' : row.type === '302' ? '302' : '301',
      recurso: row.path.replace(/^\//, ''),
      subdominio: row.subdomain,
      iframeTitle: row.iframe_title,
      iframeDescription: row.iframe_description,
      iframeKeywords: row.iframe_keywords,
      eliminable: row.eliminable === 1,
    };
  }

  /** Every redirection (the spec's call), or one page of them when the call asks for it. */
  async list(actor: Actor, params: RedirectionListParams): Promise<{ redirection: Redirection[]; total?: number }> {
    const { id } = params;
    const service = await this.changes.service(actor, id, 'service_redirects', 'visible');
    const page = listPageOf(params);
    const toDto = (row: RedirectionRow) => this.toRedirection(row, service.domain);
    if (!page) return { redirection: (await hostingRepository.redirections(this.db, id)).map(toDto) };
    const { rows, total } = await hostingRepository.redirectionsPage(this.db, id, service.domain, page);
    return { redirection: rows.map(toDto), total };
  }

  async get(actor: Actor, id: number, rid: number): Promise<Redirection> {
    const service = await this.changes.service(actor, id, 'service_redirects', 'visible');
    const row = await hostingRepository.redirection(this.db, id, rid);
    if (!row) throw new NotFoundError();
    return this.toRedirection(row, service.domain);
  }

  async create(actor: Actor, id: number, params: Omit<RedirectionCreateParams, 'id'>): Promise<Redirection> {
    const service = await this.changes.service(actor, id, 'service_redirects', 'action');
    const errors: FieldError[] = [];
    const subdomain = checkSubdomain(params.subDomain, 'subDomain', errors);
    const path = this.path(params.recurso, errors);
    const fields = this.redirectionFields(params, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    const rid = await this.changes.change(
      service,
      async (trx) => {
        // Checked under the service's row lock, so two creates of one path cannot both pass.
        if (await hostingRepository.redirectionAt(trx, id, subdomain, path)) {
          throw FieldErrors.one('recurso', 'hosting.error.redirection_taken');
        }
        const row = await hostingRepository.insertRedirection(trx, {
          service_id: id,
          subdomain,
          path,
          ...fields,
          created_at: this.now(),
        });
        return row.id;
      },
      { prepare: [], hosts: [subdomain] },
    );
    return this.get(actor, id, rid);
  }

  async save(actor: Actor, id: number, rid: number, params: RedirectionFields): Promise<Redirection> {
    const service = await this.changes.service(actor, id, 'service_redirects', 'action');
    const row = await hostingRepository.redirection(this.db, id, rid);
    if (!row) throw new NotFoundError();
    const errors: FieldError[] = [];
    const fields = this.redirectionFields(params, errors);
    if (errors.length > 0) throw new FieldErrors(errors);
    await this.changes.change(service, (trx) => hostingRepository.updateRedirection(trx, id, rid, fields), {
      prepare: [],
      hosts: [row.subdomain],
    });
    return this.get(actor, id, rid);
  }

  async remove(actor: Actor, id: number, rid: number): Promise<void> {
    const service = await this.changes.service(actor, id, 'service_redirects', 'action');
    const row = await hostingRepository.redirection(this.db, id, rid);
    if (!row) throw new NotFoundError();
    if (row.eliminable !== 1) throw new ForbiddenError('hosting.error.not_eliminable');
    noteChangeDetail(actor.activity, { target: `${row.subdomain}${row.path} → ${row.url}` });
    await this.changes.change(service, (trx) => hostingRepository.deleteRedirection(trx, id, rid), {
      prepare: [],
      hosts: [row.subdomain],
    });
  }
}
