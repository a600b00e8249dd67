import type { HostedDatabase } from '@panel247/contract/databases';
import type { Subdomain } from '@panel247/contract/hosting';
import type { AppInput, HostingApplication } from '@panel247/contract/installer';

/** Factories for the installer's tests (only tests import this module, so no bundle carries it). */

export function buildApp(overrides: Partial<HostingApplication> = {}): HostingApplication {
  return {
    id: 1,
    fullName: 'Guestbook',
    softName: 'guestbook',
    version: '1.2',
    description: 'A simple guestbook',
    category: 'guestbooks',
    type: 'php',
    size: 1_572_864,
    featured: false,
    isBBDDApplication: true,
    installConfig: [
      {
        title: 'Site',
        inputs: [
          buildInput({ name: 'site_title', value: 'My guestbook', isRequired: true }),
          buildInput({ name: 'admin_email', isRequired: true }),
          buildInput({ name: 'admin_password', password: true, value: 'never-shown', isRequired: true }),
          buildInput({ name: 'welcome', type: 'textarea' }),
          buildInput({
            name: 'language',
            type: 'select',
            value: 'es',
            options: [
              { value: 'es', label: 'Español' },
              { value: 'en', label: 'English' },
            ],
          }),
          buildInput({ name: 'moderate', type: 'checkbox' }),
          buildInput({ name: 'theme', type: 'hidden', value: 'classic' }),
        ],
      },
    ],
    ...overrides,
  };
}

export function buildInput(overrides: Partial<AppInput>): AppInput {
  return {
    name: 'field',
    label: overrides.name ?? 'Field',
    type: 'text',
    password: false,
    value: '',
    checked: false,
    options: [],
    isRequired: false,
    maxLength: 255,
    ...overrides,
  };
}

export function buildDatabase(id: number): HostedDatabase {
  return {
    id,
    bbdd: `demotest_${id}`,
    user: `demotest_${id}`,
    password: '',
    externalAccess: false,
    eliminable: true,
    size: 0,
  };
}

export const buildSite = (overrides: Partial<Subdomain> = {}): Subdomain => ({
  id: 7,
  subdominio: 'blog',
  referencePunycode: 'demo.test',
  directorio: 'blog',
  eliminable: true,
  ssl: { enabled: false, cert: { cert: '', key: '', ca: '' }, info: null },
  ...overrides,
});
