import { privacyPolicyDataSchema } from '@panel247/contract/legal';
import { z } from 'zod';
import type { ApiRouter } from '../../http/api-route.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { LegalService } from './legal.service.ts';

export function registerLegalRoutes(api: ApiRouter, brands: BrandService, legal: LegalService) {
  // Public: the login page's forgot-password form links to it before anyone is logged in.
  api.public(
    { method: 'GET', url: 'legal/privacypolicy/', params: z.object({}), data: privacyPolicyDataSchema },
    async ({ request, language }) => {
      const brand = await brands.resolve(request.headers.host);
      return { data: await legal.privacyPolicy(brand, language) };
    },
  );
}
