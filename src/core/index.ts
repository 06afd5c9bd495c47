/**
 * The face of core/: what every layer shares (errors, the handler contract, the logger, the envelope and the stores' contracts, IP addresses).
 */
export { parseAllowedOrigins } from './addresses/allowed-origins'
export { formatIp, limitKeyOf, parseIp } from './addresses/ip-address'
export type { Ip } from './addresses/ip-address'
export { CLIENT_IP_HEADERS, FORWARDED_LIMITS, ProxyTrust } from './addresses/proxy-trust'
export type { ClientIpHeader } from './addresses/proxy-trust'
export { cacheDirs } from './cache-dirs'
export { ConfigError } from './config-error'
export { HttpUrl, Millis, UsdPrice } from './env-schemas'
export { PIPELINE_VERSION } from './envelope'
export type { SuccessEnvelope } from './envelope'
export {
  ApiError,
  ERROR_CODES,
  facilitatorUnavailable,
  invalidParameter,
  ledgerUnavailable,
  notFound,
  settlementPending,
  settlementUnavailable,
  shuttingDown,
  verificationBusy,
} from './errors'
export type { X402Requirements } from './errors'
export { JsonShape } from './json-shape'
export { createLogger } from './logger'
export type { LogLevel, Logger } from './logger'
export { nanoToUsd, tokenCost, usdToNano } from './provider-spend'
export type { ProviderSpend, TokenPrices } from './provider-spend'
export { recentMemo } from './recent-memo'
export {
  FOREIGN_KEPT,
  foreignText,
  keepSecret,
  keepUrlSecrets,
  redact,
  redactDeep,
  redactSecrets,
  redactedMessage,
  urlOrigin,
  withoutCredentials,
} from './redact'
export type { HandlerMap, HandlerResult, Prepared, RouteHandler, RouteInput } from './route-handler'
export { LedgerUnavailable, newSessionId } from './stores'
export type { AnswerCache, Limiter, Session, Sessions } from './stores'
export { atomicToUsd, usdToAtomic } from './usdc'
export { msLeft, withinDeadline } from './work-deadline'
