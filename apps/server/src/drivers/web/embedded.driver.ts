import { FileWebDriver } from './file-web.driver.ts';

/**
 * Writes the same files as the nginx driver under the data folder, without a web server to test
 * or reload them: the default, so the panel runs (and its views work) with no daemon installed.
 */
export class EmbeddedWebDriver extends FileWebDriver {
  readonly kind = 'embedded' as const;
  readonly live = false;

  protected async check(): Promise<void> {}

  protected async reload(): Promise<void> {}

  async reopenLogs(): Promise<void> {}
}
