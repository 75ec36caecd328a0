import { DefaultLocale, type Locale } from '@assistente/contracts';
import { useSyncExternalStore } from 'react';
import { setLanguage, translator } from './i18n.ts';
import { isLocale } from './locale.ts';
import type { TFunction, TranslatorState } from './translator.ts';

export interface I18n {
  readonly language: Locale;
  changeLanguage(locale: Locale | string): Promise<void>;
}

export interface UseTranslationResult {
  /** Changes identity when the language changes, so it can sit in dependency lists. */
  readonly t: TFunction;
  readonly i18n: I18n;
}

const results = new WeakMap<TranslatorState, UseTranslationResult>();

function resultFor(state: TranslatorState): UseTranslationResult {
  let result = results.get(state);
  if (!result) {
    result = {
      t: state.t,
      i18n: {
        language: isLocale(state.language) ? state.language : DefaultLocale,
        changeLanguage: setLanguage,
      },
    };
    results.set(state, result);
  }
  return result;
}

/** The texts of the current language (react-i18next's call shape); re-renders on a language change. */
export function useTranslation(): UseTranslationResult {
  return resultFor(useSyncExternalStore(translator.subscribe, translator.getState, translator.getState));
}
