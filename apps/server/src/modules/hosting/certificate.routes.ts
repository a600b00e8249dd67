import {
  type SiteCertificate,
  siteCertificateAutoParamsSchema,
  siteCertificateDataSchema,
  siteCertificateParamsSchema,
} from '@panel247/contract/certificates';
import type { Language } from '@panel247/contract/constants';
import type { ApiRouter } from '../../http/api-route.ts';
import { translate } from '../../i18n/messages.ts';
import type { CertificateService, CertificateView } from './certificate.service.ts';

function toCertificate(view: CertificateView | null, language: Language): SiteCertificate | null {
  if (!view) return null;
  const { errorKey, ...rest } = view;
  return { ...rest, error: errorKey ? translate(language, errorKey) : '' };
}

/** A site's automatic certificate: its state (followed by the page while an order runs), on, off. */
export function registerCertificateRoutes(api: ApiRouter, certificates: CertificateService) {
  api.session(
    {
      method: ['GET', 'POST'],
      url: 'service/:id/subdomain/:sid/certificate/',
      params: siteCertificateParamsSchema,
      data: siteCertificateDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: { certificate: toCertificate(await certificates.state(actor, params.id, params.sid), language) },
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/subdomain/:sid/certificate/auto/',
      params: siteCertificateAutoParamsSchema,
      data: siteCertificateDataSchema,
    },
    async ({ actor, params, language }) => ({
      data: {
        certificate: toCertificate(
          await certificates.setAutomatic(actor, params.id, params.sid, {
            challenge: params.challenge,
            wildcard: params.wildcard,
          }),
          language,
        ),
      },
      info: ['acme.ordering'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/subdomain/:sid/certificate/manual/',
      params: siteCertificateParamsSchema,
      data: siteCertificateDataSchema,
    },
    async ({ actor, params }) => {
      await certificates.setManual(actor, params.id, params.sid);
      return { data: { certificate: null }, info: ['acme.manual'] };
    },
  );
}
