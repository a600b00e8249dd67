import { readFileSync } from 'node:fs';
import { type ConfigData, configDataSchema, configGetParamsSchema } from '@panel247/contract/config';
import type { FastifyInstance } from 'fastify';
import type { ApiRouter } from '../../http/api-route.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import { type BrandService, DEFAULT_LOGO_MINI_PATH, DEFAULT_LOGO_PATH } from './brand.service.ts';

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

/** The default logos, used by brands that have none, served outside the API (plain images). */
export function registerDefaultLogos(app: FastifyInstance) {
  const logo = readFileSync(new URL('../../../assets/default-logo.svg', import.meta.url));
  const mini = readFileSync(new URL('../../../assets/default-logo-mini.svg', import.meta.url));
  for (const [path, body] of [
    [DEFAULT_LOGO_PATH, logo],
    [DEFAULT_LOGO_MINI_PATH, mini],
  ] as const) {
    app.get(path, (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(body),
    );
  }
}
