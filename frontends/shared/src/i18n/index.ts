/**
 * One i18next instance for the shell and every remote (a Module Federation singleton through this package).
 * Each app registers its own namespace; en and es must have the same keys (see assertSameKeys).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../session/store';
import { commonEn, commonEs } from './common';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

export type TranslationTree = { [key: string]: string | TranslationTree };

function storedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEYS.language) === 'es' ? 'es' : 'en';
  } catch {
    return 'en';
  }
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'es'],
  defaultNS: 'common',
  ns: ['common'],
  resources: { en: { common: commonEn }, es: { common: commonEs } },
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

/** Adds (or replaces) an app's namespace in both languages. Call once at module load of the app. */
export function registerTranslations(
  ns: string,
  resources: { en: TranslationTree; es: TranslationTree },
): void {
  i18n.addResourceBundle('en', ns, resources.en, true, true);
  i18n.addResourceBundle('es', ns, resources.es, true, true);
}

/** The language is stored locally on the device. */
export function setLanguage(language: Language): Promise<unknown> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Not persisted when storage is unavailable; the switch still applies to this page.
  }
  document.documentElement.lang = language;
  return i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return i18n.language === 'es' ? 'es' : 'en';
}

function flatKeys(tree: TranslationTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : flatKeys(value, `${prefix}${key}.`),
  );
}

/** Keys present in one language and not the other. */
export function translationKeyDiff(
  en: TranslationTree,
  es: TranslationTree,
): { missingInEs: string[]; missingInEn: string[] } {
  const enKeys = new Set(flatKeys(en));
  const esKeys = new Set(flatKeys(es));
  return {
    missingInEs: [...enKeys].filter((k) => !esKeys.has(k)),
    missingInEn: [...esKeys].filter((k) => !enKeys.has(k)),
  };
}

/** Throws unless en and es have exactly the same keys; every app's tests call it on its resources. */
export function assertSameKeys(en: TranslationTree, es: TranslationTree, ns = 'translations'): void {
  const { missingInEs, missingInEn } = translationKeyDiff(en, es);
  if (missingInEs.length || missingInEn.length) {
    throw new Error(
      `${ns}: en and es differ. Missing in es: [${missingInEs.join(', ')}]; missing in en: [${missingInEn.join(', ')}]`,
    );
  }
}
