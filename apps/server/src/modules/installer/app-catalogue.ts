import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Language } from '@panel247/contract/constants';
import {
  APP_CATEGORIES,
  APP_INPUT_TYPES,
  type AppConfigSection,
  type HostingApplication,
} from '@panel247/contract/installer';
import { z } from 'zod';
import type { InstallerDriver } from '../../drivers/installer/installer.driver.ts';
import { templatePlaceholders } from './app-template.ts';
import { maxLengthOf } from './config-answers.ts';
import { pick } from './package-texts.ts';

/**
 * The application catalogue: one folder per package under the configured apps folder, each with a
 * `manifest.json` (what the installer shows and asks), a logo, its files (a folder or a .tar.gz)
 * and the templates of the config files it writes from the answers. See deploy/apps/README.md.
 */

/** A text in the three languages (es required; en and ca fall back to it), or one text for all. */
const localized = z.union([
  z.string(),
  z.object({ es: z.string(), en: z.string().optional(), ca: z.string().optional() }),
]);

/** A default answer, the same in every language or one per language (a title, the site's language). */
const localizedValue = z.union([
  z.string().max(5000),
  z.object({ es: z.string().max(5000), en: z.string().max(5000).optional(), ca: z.string().max(5000).optional() }),
]);

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const RELATIVE_FILE = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]{1,100}(?:\/[A-Za-z0-9._-]{1,100}){0,7}$/;

const inputSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/),
    label: localized,
    type: z.enum(APP_INPUT_TYPES),
    password: z.boolean().default(false),
    value: localizedValue.default(''),
    checked: z.boolean().default(false),
    options: z.array(z.object({ value: z.string().max(100), label: localized })).default([]),
    required: z.boolean().default(false),
    maxLength: z.number().int().min(1).max(5000).optional(),
    /** A format the value must have besides its type's rules. */
    format: z.enum(['email']).optional(),
  })
  .refine((input) => input.type !== 'select' || input.options.length > 0, 'a select needs options')
  .refine((input) => !input.password || input.type === 'text', 'only a text input can hold a password');
export type AppInputSpec = z.infer<typeof inputSchema>;

const manifestSchema = z.object({
  id: z.number().int().positive(),
  softName: z.string().regex(/^[a-z0-9-]{1,40}$/),
  fullName: z.string().min(1).max(100),
  version: z.string().regex(/^[0-9A-Za-z.+-]{1,32}$/),
  description: localized,
  category: z.enum(APP_CATEGORIES),
  type: z.enum(['php', 'js']),
  featured: z.boolean().default(false),
  /** It needs a MySQL database; its credentials are then available to the templates as db.*. */
  database: z.boolean().default(false),
  /** The files: a folder of the package, or a .tar.gz in it. */
  payload: z.string().regex(FILE_NAME),
  logo: z.string().regex(/^[A-Za-z0-9._-]+\.(svg|png|webp|jpe?g)$/),
  /**
   * Config files written from the answers: `template` in the package, `target` relative to the
   * install folder, `syntax` how every value is escaped (php: inside a single-quoted PHP string;
   * json: inside a JSON string; html: as HTML text).
   */
  configFiles: z
    .array(
      z.object({
        template: z.string().regex(FILE_NAME),
        target: z.string().regex(RELATIVE_FILE),
        syntax: z.enum(['php', 'json', 'html']),
      }),
    )
    .default([]),
  sections: z.array(z.object({ title: localized, inputs: z.array(inputSchema) })).default([]),
});
export type AppManifest = z.infer<typeof manifestSchema>;

export interface AppPackage {
  manifest: AppManifest;
  folder: string;
  /** Bytes of the installed files. */
  size: number;
  /** Every input of every section, by name. */
  inputs: Map<string, AppInputSpec>;
  templates: { target: string; syntax: 'php' | 'json' | 'html'; text: string }[];
}

const LOGO_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/** The names a template may use: each input as cfg.<name>, the database and the site. */
function knownPlaceholders(manifest: AppManifest, inputs: Map<string, AppInputSpec>): Set<string> {
  const names = new Set(['site.url', 'site.host', 'site.path']);
  for (const name of inputs.keys()) names.add(`cfg.${name}`);
  if (manifest.database) for (const name of ['host', 'port', 'name', 'user', 'password']) names.add(`db.${name}`);
  return names;
}

/** Reads and checks one package; a problem is thrown with the package's folder in its message. */
async function loadPackage(files: InstallerDriver, folder: string, maxBytes: number): Promise<AppPackage> {
  const manifest = manifestSchema.parse(JSON.parse(await files.readText(path.join(folder, 'manifest.json'))));
  const inputs = new Map<string, AppInputSpec>();
  for (const input of manifest.sections.flatMap((section) => section.inputs)) {
    if (inputs.has(input.name)) throw new Error(`input ${input.name} is declared twice`);
    inputs.set(input.name, input);
  }
  await files.ensureExists(path.join(folder, manifest.logo));
  const known = knownPlaceholders(manifest, inputs);
  const templates: AppPackage['templates'] = [];
  for (const file of manifest.configFiles) {
    const text = await files.readText(path.join(folder, file.template));
    for (const placeholder of templatePlaceholders(text)) {
      if (!known.has(placeholder.name)) throw new Error(`${file.template}: unknown placeholder ${placeholder.name}`);
    }
    templates.push({ target: file.target, syntax: file.syntax, text });
  }
  const size = await files.payloadSize(path.join(folder, manifest.payload), maxBytes);
  return { manifest, folder, size, inputs, templates };
}

export class AppCatalogue {
  private loading: Promise<Map<number, AppPackage>> | null = null;

  constructor(
    private readonly files: InstallerDriver,
    private readonly appsDir: string,
    private readonly maxBytes: number,
    /** A broken package is left out of the catalogue and reported here (the others still load). */
    private readonly onProblem: (folder: string, problem: string) => void,
  ) {}

  /** Loaded once, on first use: the catalogue changes with a deployment, and a restart reads it again. */
  private packages(): Promise<Map<number, AppPackage>> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<Map<number, AppPackage>> {
    const packages = new Map<number, AppPackage>();
    let folders: string[] = [];
    try {
      folders = await this.files.packageFolders(this.appsDir);
    } catch (error) {
      this.onProblem(this.appsDir, (error as Error).message);
    }
    for (const folder of folders) {
      try {
        const found = await loadPackage(this.files, folder, this.maxBytes);
        if (packages.has(found.manifest.id)) throw new Error(`id ${found.manifest.id} is taken by another package`);
        packages.set(found.manifest.id, found);
      } catch (error) {
        const problem = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
        this.onProblem(folder, problem);
      }
    }
    return packages;
  }

  async find(id: number): Promise<AppPackage | undefined> {
    return (await this.packages()).get(id);
  }

  /** The catalogue as the installer shows it: featured first, then by name. */
  async list(language: Language): Promise<HostingApplication[]> {
    const apps = [...(await this.packages()).values()].map((found) => toApplication(found, language));
    return apps.sort(
      (a, b) => Number(b.featured) - Number(a.featured) || a.fullName.localeCompare(b.fullName, language),
    );
  }

  /** The logo's bytes and type; undefined for an unknown id. */
  async logo(id: number): Promise<{ stream: Readable; type: string } | undefined> {
    const found = await this.find(id);
    if (!found) return undefined;
    const extension = path.extname(found.manifest.logo).slice(1).toLowerCase();
    return {
      stream: this.files.openLogo(path.join(found.folder, found.manifest.logo)),
      type: LOGO_TYPES[extension] ?? 'application/octet-stream',
    };
  }
}

function toApplication({ manifest, size }: AppPackage, language: Language): HostingApplication {
  const installConfig: AppConfigSection[] = manifest.sections.map((section) => ({
    title: pick(section.title, language),
    inputs: section.inputs.map((input) => ({
      name: input.name,
      label: pick(input.label, language),
      type: input.type,
      password: input.password,
      // A password is never prefilled: each install gets its own.
      value: input.password ? '' : pick(input.value, language),
      checked: input.checked,
      options: input.options.map((option) => ({ value: option.value, label: pick(option.label, language) })),
      isRequired: input.required,
      maxLength: maxLengthOf(input),
    })),
  }));
  return {
    id: manifest.id,
    fullName: manifest.fullName,
    softName: manifest.softName,
    version: manifest.version,
    description: pick(manifest.description, language),
    category: manifest.category,
    type: manifest.type,
    size,
    featured: manifest.featured,
    isBBDDApplication: manifest.database,
    installConfig,
  };
}
