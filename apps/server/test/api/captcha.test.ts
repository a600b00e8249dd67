import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('captcha on %s', (kind) => {
  describe('ALTCHA (default, self-hosted)', () => {
    let t: TestApp;
    let account: BuiltAccount;

    beforeAll(async () => {
      t = await buildTestApp(kind, { config: { 'captcha.provider': 'altcha', 'captcha.altchaMaxNumber': 2000 } });
      account = await buildAccount(t.database.db, { domainName: 'altcha.test' });
    });
    afterAll(() => t.close());

    async function solvedPayload(): Promise<string> {
      const response = await t.app.inject({ method: 'GET', url: '/p247/captcha/challenge/' });
      expect(response.statusCode).toBe(200);
      const challenge = response.json();
      const solution = await solveChallenge({ challenge, deriveKey });
      if (!solution) throw new Error('no solution');
      return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    }

    it('announces ALTCHA and its challenge URL in the configuration', async () => {
      const { body } = await t.call('GET', 'config/get/');
      expect(body.data).toMatchObject({ captcha: { provider: 'altcha', challengeUrl: '/p247/captcha/challenge/' } });
    });

    it('accepts a solved challenge once, and refuses it replayed', async () => {
      const payload = await solvedPayload();
      const params = {
        domainName: account.domainName,
        username: 'admin',
        password: account.password,
        recaptcha_response: payload,
      };
      expect((await t.call('POST', 'user/login/', params)).body.system.valid).toBe(true);
      const replay = await t.call('POST', 'user/login/', params);
      expect(replay.body.system).toMatchObject({ valid: false, inputs: ['recaptcha_response'] });
    });

    it('refuses a missing, forged or tampered answer as a field error', async () => {
      const payload = JSON.parse(Buffer.from(await solvedPayload(), 'base64').toString());
      // The derived key is the proof of work (its HMAC is signed in the challenge): forge it.
      payload.solution.derivedKey = payload.solution.derivedKey.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
      for (const response of ['', 'bm90IGpzb24=', Buffer.from(JSON.stringify(payload)).toString('base64')]) {
        const { body } = await t.call('POST', 'user/login/', {
          domainName: account.domainName,
          username: 'admin',
          password: account.password,
          recaptcha_response: response,
        });
        expect(body.system).toMatchObject({ valid: false, inputs: ['recaptcha_response'] });
        expect(body.system.errors[0]).toMatch(/robot/);
      }
    });
  });

  describe('siteverify providers (reCAPTCHA, hCaptcha, Turnstile)', () => {
    let verifier: Server;
    let port: number;
    const seen: URLSearchParams[] = [];

    beforeAll(async () => {
      // A loopback stand-in for the provider's siteverify endpoint (the real ones are on the internet).
      verifier = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          const form = new URLSearchParams(body);
          seen.push(form);
          response.setHeader('content-type', 'application/json');
          response.end(
            JSON.stringify({ success: form.get('secret') === 's3cret' && form.get('response') === 'good-token' }),
          );
        });
      });
      await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
      port = (verifier.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

    it.each(['recaptcha', 'hcaptcha', 'turnstile'])('%s: verifies the token with the secret', async (provider) => {
      const t = await buildTestApp(kind, {
        config: {
          'captcha.provider': provider,
          'captcha.secret': 's3cret',
          'captcha.siteKey': 'site-key',
          'captcha.verifyUrl': `http://127.0.0.1:${port}/siteverify`,
        },
      });
      const account = await buildAccount(t.database.db, { domainName: `${provider}.test` });
      const config = await t.call('GET', 'config/get/');
      expect(config.body.data).toMatchObject({ captcha: { provider, siteKey: 'site-key' } });
      const params = { domainName: account.domainName, username: 'admin', password: account.password };
      expect((await t.call('POST', 'user/login/', { ...params, recaptcha_response: 'bad' })).body.system.valid).toBe(
        false,
      );
      expect(
        (await t.call('POST', 'user/login/', { ...params, recaptcha_response: 'good-token' })).body.system.valid,
      ).toBe(true);
      expect(seen.at(-1)?.get('remoteip')).toBe('127.0.0.1');
      await t.close();
    });

    it('refuses logins when the provider cannot be reached (fail closed)', async () => {
      const t = await buildTestApp(kind, {
        config: {
          'captcha.provider': 'turnstile',
          'captcha.secret': 's3cret',
          'captcha.verifyUrl': 'http://127.0.0.1:9/x',
        },
      });
      const account = await buildAccount(t.database.db, { domainName: 'down.test' });
      const { body } = await t.call('POST', 'user/login/', {
        domainName: account.domainName,
        username: 'admin',
        password: account.password,
        recaptcha_response: 'good-token',
      });
      expect(body.system).toMatchObject({ valid: false, inputs: ['recaptcha_response'] });
      await t.close();
    });
  });
});
