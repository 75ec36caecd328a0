// The feature's public surface: code outside features/auth imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { authErrorText } from './authErrors.ts';
// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as LoginPage } from './components/LoginPage.tsx';
export { PasswordChecklist } from './components/PasswordChecklist.tsx';
export { default as ResetPasswordPage } from './components/ResetPasswordPage.tsx';
export {
  acceptEmbeddedSession,
  adoptEmbeddedSession,
  embeddedIdToken,
  embeddedVisitor,
  lastEmbeddedChat,
  loseEmbeddedSession,
  rememberEmbeddedChat,
  restoreEmbeddedSession,
  setEmbeddedKeeper,
} from './embedded.ts';
export { readHandoffQuery } from './handoffQuery.ts';
export { useAccountSession } from './hooks/useAccountSession.ts';
export { useEmbeddedSession } from './hooks/useEmbeddedSession.ts';
export { type FetchedImage, useFetchedImage, useFetchedImageState } from './hooks/useFetchedImage.ts';
export { useGuessableCheck } from './hooks/useGuessableCheck.ts';
export { meetsPolicy, passwordChecks } from './passwordPolicy.ts';
export { authorizedRequest, downloadFile, fetchBlob } from './requests.ts';
export {
  accessDenied,
  authServices,
  initAuthServices,
  initVisitorServices,
  productServices,
  signOut,
} from './services.ts';
export {
  type AccountSession,
  accountSession,
  embeddedSession,
  isAuthenticated,
  isPremium,
} from './session.ts';
