import { contactMailParamsSchema } from '@panel247/contract/contact';
import { emptyDataSchema } from '@panel247/contract/envelope';
import { forgotPasswordParamsSchema } from '@panel247/contract/user';
import { FieldErrors } from '../../errors.ts';
import type { ApiRouter } from '../../http/api-route.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import type { ContactService } from './contact.service.ts';

export function registerContactRoutes(
  api: ApiRouter,
  deps: { brands: BrandService; contact: ContactService; captcha: CaptchaVerifier },
) {
  api.session(
    { method: 'POST', url: 'contactmail/', params: contactMailParamsSchema, data: emptyDataSchema },
    async ({ actor, request, params }) => {
      const brand = await deps.brands.byId(actor.brandId);
      await deps.contact.contact(actor, brand, request.ip, params, request.log);
      return { data: {}, info: ['contact.sent'] };
    },
  );

  api.public(
    { method: 'POST', url: 'user/forgotpassword/', params: forgotPasswordParamsSchema, data: emptyDataSchema },
    async ({ request, params }) => {
      if (!(await deps.captcha.verify(params.recaptcha_response, request.ip))) {
        throw FieldErrors.one('recaptcha_response', 'auth.captcha_failed');
      }
      const brand = await deps.brands.resolve(request.headers.host);
      await deps.contact.forgotPassword(brand, request.ip, params, request.log);
      return { data: {}, info: ['contact.forgot_sent'] };
    },
  );
}
