import { ACTIVITY_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { saveApiFile } from '../../../lib/save-file';
import type { ActivityFilters } from './list-activity';

/** The filtered log as CSV, saved by the browser. */
export function useExportActivity() {
  return useMutation({ mutationFn: (filters: ActivityFilters) => saveApiFile(ACTIVITY_API.export, filters) });
}
