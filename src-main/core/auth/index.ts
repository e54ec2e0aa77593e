// The auth room: OAuth 2.1 for remote MCP servers on the SDK's client auth, tokens in the keychain.
export {
  OAuthManager,
  type OAuthManagerOptions,
  type SignInOptions,
  type SignInResult,
} from './oauthManager';
export {
  MooringOAuthProvider,
  authRequired,
  signInHint,
  type AuthorizationOpener,
  type AuthorizationPrompt,
  type OAuthProviderOptions,
  type SignInState,
} from './oauthProvider';
export { OAuthStore, authAccount, verifierAccount } from './oauthStore';
export {
  transportAuth,
  plainTransportAuth,
  withSignIn,
  MAX_AUTHORIZATIONS_PER_SEND,
  type TransportAuth,
} from './authTransport';
export { isSafeAuthorizationUrl, assertSafeAuthorizationUrl, isLoopbackHost } from './authorizationUrl';
export {
  REDIRECT_PATH,
  redirectUrlFor,
  listenForCallback,
  DEFAULT_CALLBACK_TIMEOUT_MS,
} from './redirectListener';
export { toAuthError } from './authErrors';
export { followAuthorizationRedirects } from './headlessOpener';
