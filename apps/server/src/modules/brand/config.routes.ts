import { type ConfigData, configDataSchema, configGetParamsSchema } from '@panel247/contract/config';
import type { ApiRouter } from '../../http/api-route.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import type { BrandService } from './brand.service.ts';

export function registerConfigRoutes(
  api: ApiRouter,
  brands: BrandService,
  options: { basePath: string; captcha: CaptchaVerifier; captchaSiteKey: string },
) {
  api.public(
    { method: 'GET', url: 'config/get/', params: configGetParamsSchema, data: configDataSchema },
    async ({ request, params, language }) => {
      const brand = await brands.resolve(request.headers.host, params._referer_);
      const explicit = Boolean(request.cookies._lang || (request.query as { language?: string }).language);
      const data: ConfigData = {
        company: brand.company,
        themeConfig: {
          color: brand.color,
          logo: brand.logo,
          logo_mini: brand.logoMini,
          allowColorChange: brand.allowColorChange,
        },
        defaultLanguage: brand.defaultLanguage,
        language: explicit ? language : brand.defaultLanguage,
        channel: brand.channel,
        basePath: options.basePath,
        captcha: {
          provider: options.captcha.provider,
          siteKey: options.captchaSiteKey,
          challengeUrl: `${options.basePath}captcha/challenge/`,
        },
      };
      return { data };
    },
  );
}
