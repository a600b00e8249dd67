/** Checks the `recaptcha_response` of the login and forgot-password forms. */
export interface CaptchaVerifier {
  readonly provider: 'altcha' | 'recaptcha' | 'hcaptcha' | 'turnstile' | 'none';
  verify(response: string, remoteIp: string): Promise<boolean>;
}

export class NoCaptcha implements CaptchaVerifier {
  readonly provider = 'none' as const;
  async verify(): Promise<boolean> {
    return true;
  }
}
