import type { Locale } from '@assistente/contracts';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useChangeLanguage } from '../../../lib/i18n/useChangeLanguage.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useAccountSession } from '../../auth/index.ts';
import { useProfile, useUpdateProfile } from './useSettings.ts';

/**
 * Whose saved language this tab already follows. Module-wide, not per component: leaving a layout
 * for another must not pull the language back to the saved one over a choice that failed to save.
 */
let appliedFor: string | null = null;

/**
 * The interface language as the account keeps it. Once per signed-in person the saved language
 * (chosen on another browser) replaces this browser's; every later choice is saved to the account.
 */
export function useAccountLanguage(): (locale: Locale) => void {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const changeLanguage = useChangeLanguage();
  const { apiUser } = useAccountSession();
  const profile = useProfile();
  const update = useUpdateProfile();
  const userId = apiUser?._id ?? null;
  const saved = profile.data?.locale;

  useEffect(() => {
    if (!userId || saved === undefined || appliedFor === userId) return;
    appliedFor = userId;
    if (saved && saved !== i18n.language) changeLanguage(saved);
  }, [userId, saved, i18n.language, changeLanguage]);

  return (locale: Locale) => {
    changeLanguage(locale);
    update.mutate(
      { locale },
      {
        onError: (error) =>
          void popup.show({
            status: 'error',
            title: t('locale.save_failed'),
            description: apiErrorText(t, error),
          }),
      },
    );
  };
}
