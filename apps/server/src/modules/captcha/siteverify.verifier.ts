import type { CaptchaVerifier } from './captcha.verifier.ts';

const VERIFY_URLS = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
} as const;

/**
 * reCAPTCHA, hCaptcha and Turnstile share one protocol: POST secret + response (+ remoteip) as a
 * form, read `success`. Any failure to reach the provider refuses the login (fail closed).
 */
export class SiteVerifyVerifier implements CaptchaVerifier {
  private readonly url: string;

  constructor(
    readonly provider: keyof typeof VERIFY_URLS,
    private readonly secret: string,
    verifyUrl?: string,
  ) {
    this.url = verifyUrl ?? VERIFY_URLS[provider];
  }

  async verify(response: string, remoteIp: string): Promise<boolean> {
    if (!response) return false;
    try {
      const answer = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: this.secret, response, remoteip: remoteIp }),
        signal: AbortSignal.timeout(5000),
      });
      if (!answer.ok) return false;
      const json = (await answer.json()) as { success?: unknown };
      return json.success === true;
    } catch {
      return false;
    }
  }
}
