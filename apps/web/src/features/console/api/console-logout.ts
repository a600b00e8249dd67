import { useMutation } from '@tanstack/react-query';
import { CONSOLE_API, consoleApi } from './console-api';

export function consoleLogout(): Promise<unknown> {
  return consoleApi(CONSOLE_API.logout, undefined, { method: 'POST', signIn: true });
}

export function useConsoleLogout() {
  return useMutation({ mutationFn: consoleLogout });
}
