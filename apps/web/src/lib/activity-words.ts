import type { ActivityFieldChange } from '@panel247/contract/activity';
import { formatEpoch } from './dates';
import { useTranslation } from './use-translation';

/**
 * How an activity log names an entry: its time, what was done (a known call or event by its text,
 * any other by its own name), its area and a field's change, before → after. The customers' log
 * and the provider's console (every account's log) word entries alike.
 */
export function useActivityWords() {
  const { t, i18n } = useTranslation();
  const key = (name: string) => name.replace(/[/.]/g, '_');
  return {
    when: (seconds: number) => formatEpoch(seconds, i18n.language, 'second'),
    action: (action: string) => t(`activity.action.${key(action)}`, { defaultValue: action }),
    area: (area: string) => t(`activity.area.${area}`, { defaultValue: area }),
    change: (change: ActivityFieldChange) => {
      const field = t(`activity.field.${key(change.field)}`, { defaultValue: change.field });
      if (change.before === null) return `${field}: ${change.after ?? ''}`;
      return `${field}: ${change.before} → ${change.after ?? t('activity.removed')}`;
    },
  };
}
