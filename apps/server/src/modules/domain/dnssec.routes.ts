import type { Language } from '@panel247/contract/constants';
import {
  cdsScanDataSchema,
  dnssecJobDataSchema,
  dnssecJobParamsSchema,
  dnssecServiceParamsSchema,
  dnssecSignParamsSchema,
  dnssecZoneDataSchema,
} from '@panel247/contract/dnssec';
import type { ApiRouter } from '../../http/api-route.ts';
import { translate } from '../../i18n/messages.ts';
import type { CdsScanService } from './cds-scan.service.ts';
import type { UnsignJobView, ZoneDnssecService } from './zone-dnssec.service.ts';

const SIGNED_INFO = {
  yes: 'dnssec.signed_published',
  no: 'dnssec.signed',
  delegated_elsewhere: 'dnssec.signed_not_delegated',
} as const;

function toJob(job: UnsignJobView, language: Language) {
  const { errorKey, ...rest } = job;
  return { ...rest, error: errorKey ? translate(language, errorKey) : '' };
}

/**
 * The DNS view's DNSSEC card (`service/:id/dns/dnssec/…`: the zone's visibility to read, its
 * action to sign or unsign) and the domain view's CDS scan result (`domain/:id/dnssec/scan/`).
 */
export function registerDnssecRoutes(api: ApiRouter, zones: ZoneDnssecService, scans: CdsScanService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  api.session(
    { method: both, url: 'service/:id/dns/dnssec/', params: dnssecServiceParamsSchema, data: dnssecZoneDataSchema },
    async ({ actor, params, language }) => {
      const state = await zones.state(actor, params.id);
      return { data: { ...state, job: state.job ? toJob(state.job, language) : null } };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/dns/dnssec/sign/', params: dnssecSignParamsSchema, data: dnssecZoneDataSchema },
    async ({ actor, params, language }) => {
      const { published } = await zones.sign(actor, params.id, params.publish === '1');
      const state = await zones.state(actor, params.id);
      return {
        data: { ...state, job: state.job ? toJob(state.job, language) : null },
        info: [SIGNED_INFO[published]],
      };
    },
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/dns/dnssec/unsign/',
      params: dnssecServiceParamsSchema,
      data: dnssecJobDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: { job: toJob(await zones.startUnsign(actor, params.id), language) },
      info: ['dnssec.unsign_started'],
    }),
  );
  api.session(
    {
      method: both,
      url: 'service/:id/dns/dnssec/job/:jobId/',
      params: dnssecJobParamsSchema,
      data: dnssecJobDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: { job: toJob(await zones.job(actor, params.id, params.jobId), language) },
    }),
  );
  api.session(
    { method: both, url: 'domain/:id/dnssec/scan/', params: dnssecServiceParamsSchema, data: cdsScanDataSchema },
    async ({ actor, params, language }) => {
      const scan = await scans.last(actor, params.id);
      if (!scan) return { data: { scan: null } };
      // refused and failed keep a message key; the others the DS set written (or nothing)
      const keyed = scan.outcome === 'refused' || scan.outcome === 'failed';
      return { data: { scan: { ...scan, detail: keyed ? translate(language, scan.detail) : scan.detail } } };
    },
  );
}
