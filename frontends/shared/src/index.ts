/** @avatar-studio/shared: import everything from here (it is one Module Federation singleton). */
export { api, ApiError, unwrap, setRetryDelay, refreshTokens, forceSignOut, RETRY_COUNT } from './api/client';
export type { ApiPaths } from './api/client';
export type * from './api/contracts';
export {
  sessionStore,
  setNavigator,
  navigateAway,
  setSignedInHint,
  captureTemporaryUid,
  takeTemporaryUid,
  takeViewAsCode,
  tabStorage,
  VIEW_AS_HASH,
  STORAGE_KEYS,
  TOKEN_REFRESH_AFTER_MS,
  TEMPORARY_UID_TTL_MS,
} from './session/store';
export type { ViewingAs } from './session/store';
export { SessionProvider, sessionKnown, useSession, SESSION_USER_QUERY_KEY } from './session/SessionProvider';
export { ViewingAsBanner } from './session/ViewingAsBanner';
export type { Session, SessionStatus } from './session/SessionProvider';
export {
  AppConfigProvider,
  StaticAppConfigProvider,
  useAppConfig,
  createAppConfig,
  toConfigRecord,
  APP_CONFIG_QUERY_KEY,
} from './appconfig/AppConfigProvider';
export type { AppConfig } from './appconfig/AppConfigProvider';
export {
  OrganizationProvider,
  useOrganization,
  chooseOrganization,
  organizationHint,
  pathOrganizationSlug,
  withoutOrganizationSlug,
  RESERVED_PATH_SEGMENTS,
  membershipRole,
  MEMBERSHIPS_QUERY_KEY,
} from './organization/OrganizationProvider';
export type { CurrentOrganization, OrganizationState } from './organization/OrganizationProvider';
export { StaffScopeBanner } from './organization/StaffScopeBanner';
export { notifyError, notifySuccess, errorAlertText, ALERT_MS, SUCCESS_MS } from './notify';
export {
  i18n,
  registerTranslations,
  setLanguage,
  currentLanguage,
  assertSameKeys,
  translationKeyDiff,
  LANGUAGES,
} from './i18n';
export type { Language, TranslationTree } from './i18n';
export { commonEn, commonEs } from './i18n/common';
export * from './permissions';
export * as templateGrammar from './template-grammar';
export * from './remote';
export { loadScript } from './load-script';
export { AppProviders, ThemeProvider, createQueryClient } from './providers';
export { StandaloneRemote } from './standalone';
export { PageLoader } from './ui/PageLoader';
export { PagedTable, pageCount } from './ui/PagedTable';
export type { PagedTableProps } from './ui/PagedTable';
export { ConfirmModal, DANGER_BUTTON_COLOR } from './ui/ConfirmModal';
export { NotFound } from './ui/NotFound';
export * from './features';
export { RemoteErrorPanel } from './ui/RemoteErrorPanel';
export type { RemoteErrorPanelProps } from './ui/RemoteErrorPanel';
export { useDebouncedValue, SEARCH_DEBOUNCE_MS } from './ui/hooks';
export {
  formatDate,
  formatDateTime,
  formatNumber,
  formatMoney,
  dateDisplayFormat,
  useFormat,
} from './format';
export { buildTheme, cssVariablesResolver, shadesOf, BREAKPOINTS, BREAKPOINT_PX } from './ui/theme';
export * from './realtime';
export { useScopeKey } from './data/scope';
export type { ScopeKey } from './data/scope';
export { multipart, uploadFile } from './data/upload';
export { useGeneratingMutation, isNoAccess } from './data/useGeneratingMutation';
export type { GeneratingMutationOptions } from './data/useGeneratingMutation';
