import type { ConsoleLoginData, ConsoleLoginParams } from '@panel247/contract/console';
import { useMutation } from '@tanstack/react-query';
import { CONSOLE_API, consoleApi } from './console-api';

/** The password (code ''), then the code: of the app, or of the one just set up from `setup`. */
export function consoleLogin(params: ConsoleLoginParams): Promise<ConsoleLoginData> {
  return consoleApi<ConsoleLoginData>(CONSOLE_API.login, params, { method: 'POST', signIn: true });
}

export function useConsoleLogin() {
  return useMutation({ mutationFn: consoleLogin });
}
