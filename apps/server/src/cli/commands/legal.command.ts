import { readFile } from 'node:fs/promises';
import { CliError, type CommandGroup, defineCommand } from '../command.ts';
import * as v from '../validate.ts';

interface LegalInput {
  brand: string;
  language: string;
  title: string;
  body: string;
  redirect: string;
}

const set = defineCommand({
  name: 'set',
  summary: "Set a brand's privacy policy in one language (--redirect sends readers to an external page instead)",
  usage: '--brand SLUG --language L --title T (--text-file F | --text T) [--redirect URL]',
  options: {
    brand: { type: 'string' },
    language: { type: 'string' },
    title: { type: 'string' },
    text: { type: 'string' },
    'text-file': { type: 'string' },
    redirect: { type: 'string' },
  },
  async parse({ values }): Promise<LegalInput> {
    const brand = v.slug(v.requiredString(values, 'brand'), 'brand');
    const language = v.language(v.requiredString(values, 'language'));
    const title = v.line(v.requiredString(values, 'title'), 'title');
    const inline = v.optionString(values, 'text');
    const file = v.optionString(values, 'text-file');
    if ((inline === undefined) === (file === undefined))
      throw new CliError('Give exactly one of --text or --text-file');
    let body: string;
    if (file !== undefined) {
      try {
        body = v.text(await readFile(file, 'utf8'), 'text-file');
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(
          `--text-file: cannot read ${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code})`,
        );
      }
    } else {
      body = v.text(inline ?? '', 'text');
    }
    const redirect = v.urlOrPath(v.optionString(values, 'redirect') ?? '', 'redirect', false);
    return { brand, language, title, body, redirect };
  },
  async run({ admin }, input: LegalInput) {
    await admin.setLegalText(input.brand, input.language, input.title, input.body, input.redirect);
    return {
      json: { brand: input.brand, language: input.language, title: input.title, redirect: input.redirect || null },
      text: `Privacy policy of '${input.brand}' in '${input.language}' set (${input.body.length} characters)`,
    };
  },
});

export const legalCommands: CommandGroup = {
  name: 'legal',
  summary: 'Legal texts of a brand (privacy policy)',
  commands: [set],
};
