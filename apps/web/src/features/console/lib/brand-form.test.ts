// @vitest-environment node
import type { ConsoleBrand } from '@panel247/contract/console';
import { describe, expect, it } from 'vitest';
import { brandPayload, brandValues, legalValues, previewable } from './brand-form';

const BRAND: ConsoleBrand = {
  slug: 'default',
  company: 'Hosting Ejemplo',
  color: 'indigo',
  logo: '/logo.svg',
  logoMini: '',
  allowColorChange: true,
  defaultLanguage: 'es',
  contactEmail: 'hola@example.com',
  require2fa: false,
  isDefault: true,
  legal: [{ language: 'en', title: 'Privacy', body: 'We keep little.', redirectTo: '' }],
};

describe('brand form', () => {
  it('sends the brand as typed, trimmed, with its switches as 1 or 0', () => {
    const values = brandValues(BRAND);
    expect(values).not.toHaveProperty('slug');
    expect(values).not.toHaveProperty('legal');
    expect(brandPayload({ ...values, company: ' Nuevo Nombre ', logoMini: ' https://cdn.example.com/m.png ' })).toEqual(
      {
        company: 'Nuevo Nombre',
        color: 'indigo',
        logo: '/logo.svg',
        logoMini: 'https://cdn.example.com/m.png',
        allowColorChange: '1',
        defaultLanguage: 'es',
        contactEmail: 'hola@example.com',
        require2fa: '0',
      },
    );
  });

  it('starts a language without its own privacy policy empty (the panel’s default text)', () => {
    expect(legalValues(BRAND, 'en')).toEqual({
      language: 'en',
      title: 'Privacy',
      body: 'We keep little.',
      redirectTo: '',
    });
    expect(legalValues(BRAND, 'ca')).toEqual({ language: 'ca', title: '', body: '', redirectTo: '' });
  });

  it('previews only the logo addresses the server takes', () => {
    expect(previewable('/brand/logo.svg')).toBe(true);
    expect(previewable('https://cdn.example.com/logo.png')).toBe(true);
    expect(previewable('')).toBe(false);
    expect(previewable('//evil.example/x.png')).toBe(false);
    expect(previewable('javascript:alert(1)')).toBe(false);
    expect(previewable('https://a.example/x" onerror="y')).toBe(false);
  });
});
