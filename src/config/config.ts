/**
 * The configuration: reads the environment, validates it against the settings table (./settings.ts) and
 * the rules between settings, and returns it as a frozen Config.
 */
import type { LedgerRetention } from '../ledger'
import { Value } from '@sinclair/typebox/value'
import { read } from './read'
import { keepSecretsOf } from './secrets'
import { readDatasets, type DatasetsSettings } from './data-source'
import { type Platform, PLATFORM_TOKENS } from '../catalog'
import { type CdpApiKey, type NetworkName, parseCdpSecret, type PaymentMode, type PaymentOffer } from '../payments'
import { readNetworks, requirePayee } from './network-settings'
import { type ClientIpHeader, ConfigError, type LogLevel, parseAllowedOrigins, ProxyTrust, usdToNano } from '../core'
import {
  type LlmFormat,
  NATIVE_ADAPTERS,
  type NativeVendor,
  type ProviderSettings,
  type SearchSettings,
  WEB_ADAPTERS,
  type WebVendor,
} from '../intelligence'
import { DEV_PAY_TO, ENV, type EnvName } from './settings'

// Re-exported: most users of DEV_PAY_TO load a config too.
export { DEV_PAY_TO }

export interface Config extends DatasetsSettings {
  port: number
  host: string
  /** Share PORT with other instances on the same ledger (SO_REUSEPORT); off: a port in use is an error. */
  reusePort: boolean
  shutdownTimeoutMs: number
  publicBaseUrl: string
  /** Extra origins allowed to call /mcp, normalised; `*` = any Origin. */
  mcpAllowedOrigins: readonly string[]
  /** PAY_TO: paid on every network without a PAY_TO_<NETWORK> of its own. */
  payTo: `0x${string}`
  payToIsDevDefault: boolean
  /** The primary network: PAYMENT_NETWORKS' first (or X402_NETWORK). */
  network: NetworkName
  /** Every network a 402 offers, in order, with the address paid there (and batch-settlement where offered). */
  offers: readonly PaymentOffer[]
  batch?: import('./batch-settings').BatchSettings
  paymentMode: PaymentMode
  facilitatorUrl?: string
  facilitatorTimeoutMs: number
  /** How long the facilitator may not answer before /ready says so (X402_FACILITATOR_OUTAGE_SECONDS). */
  facilitatorOutageMs: number
  /** Verification calls the facilitator modes allow (verify-guard.ts). */
  verifyLimits: { concurrency: number; newPayersPerSecond: number }
  /** IPv6 clients share the per-IP limit by this prefix (RATE_LIMIT_IPV6_PREFIX). */
  rateLimitIpv6Prefix: number
  facilitatorHeaders?: Record<string, string>
  /** CDP API key: every facilitator call carries a JWT freshly signed with it. */
  cdpApiKey?: CdpApiKey
  /** The primary network's JSON-RPC endpoint (rpc[network]). */
  rpcUrl: string
  rpcUrlIsDefault: boolean
  /** Each offered network's JSON-RPC endpoint. */
  rpc: Readonly<Partial<Record<NetworkName, { url: string; isDefault: boolean }>>>
  /** Every known network's endpoint for reconciling (one dropped from PAYMENT_NETWORKS keeps its payments). */
  reconcileRpc: Readonly<Record<NetworkName, string>>
  settlerPrivateKey?: `0x${string}`
  reconcileSeconds: number
  /** SETTLE_MODE: settle before the answer, or in the background (payments/deferred.ts). */
  settleMode: 'sync' | 'deferred'
  /** USD amounts as decimal strings (the configuration is JSON: it is logged and printed). */
  deferred: { maxUnsettledUsd: string; maxPriceUsd: string | null; concurrency: number }
  rateLimitIpPerMinute: number
  rateLimitPayerPerMinute: number
  /** Reverse proxies whose forwarding header names the client; none = the socket peer is the client. */
  trustedProxies?: ProxyTrust
  metricsToken?: string
  intelligenceCacheTtlSeconds: number
  /** WARM_UP_SAMPLE_ANSWERS (intelligence/warm-up.ts). */
  warmUpSampleAnswers: boolean
  kolCacheTtlSeconds: number
  ledgerPath: string
  /** PostgreSQL shared by several instances; unset: the SQLite file at ledgerPath. */
  ledgerUrl?: string
  artifactTtlSeconds: number
  /** Bytes of computed answers kept in memory (RESULT_CACHE_MAX_MB). */
  resultCacheMaxBytes: number
  /** DuckDB's memory limit in MB (DUCKDB_MEMORY_LIMIT_MB). */
  duckdbMemoryLimitMb: number
  /** What the hourly pass drops from the ledger (LEDGER_KEEP_*). */
  ledgerRetention: LedgerRetention
  logLevel: LogLevel
  nodeEnv: 'development' | 'production' | 'test'
  /** Live evidence providers of the China routes; none configured = the sample corpus. */
  providers: ProviderSettings
}

/** X402_FACILITATOR_HEADERS: a JSON object of header names to string values. */
function headersFrom(raw: string): Record<string, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new ConfigError('X402_FACILITATOR_HEADERS', 'invalid value: not JSON (expected an object such as {"Authorization":"Bearer …"})')
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((v) => typeof v === 'string')
  ) {
    throw new ConfigError('X402_FACILITATOR_HEADERS', 'invalid value: expected a JSON object of header names to string values')
  }
  return parsed as Record<string, string>
}

/** MCP_ALLOWED_ORIGINS: comma-separated origins or `*`. */
function allowedOriginsFrom(raw: string | undefined): readonly string[] {
  if (raw === undefined) return []
  const parsed = parseAllowedOrigins(raw)
  if ('invalid' in parsed)
    throw new ConfigError(
      'MCP_ALLOWED_ORIGINS',
      `invalid value ${JSON.stringify(parsed.invalid)}: expected origins such as https://app.example.com (http or https, host, optional port, no path) separated by commas, or *`,
    )
  return Object.freeze(parsed.origins)
}

/** Reads and validates the environment once; the result is frozen. Throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const nodeEnv = (read(env, 'NODE_ENV') as Config['nodeEnv'] | undefined) ?? 'development'
  const port = (read(env, 'PORT') as number | undefined) ?? 3000
  const payTo = read(env, 'PAY_TO') as `0x${string}` | undefined
  if (nodeEnv === 'production') requirePayee(env, payTo)
  const paymentMode = read(env, 'PAYMENT_MODE') as PaymentMode | undefined
  if (nodeEnv === 'production' && (paymentMode ?? 'local') === 'local') {
    throw new ConfigError('PAYMENT_MODE', 'must be `facilitator` or `self` when NODE_ENV=production (`local` settles nothing)')
  }
  const facilitatorUrl = read(env, 'X402_FACILITATOR_URL') as string | undefined
  const facilitatorHeaders = env.X402_FACILITATOR_HEADERS ? headersFrom(read(env, 'X402_FACILITATOR_HEADERS') as string) : undefined
  const cdpApiKey = readCdpApiKey(env)
  if (paymentMode === 'facilitator' && !facilitatorUrl && !cdpApiKey) {
    throw new ConfigError(
      'X402_FACILITATOR_URL',
      "is required when PAYMENT_MODE=facilitator (or set CDP_API_KEY_ID and CDP_API_KEY_SECRET for Coinbase's CDP facilitator)",
    )
  }
  if (cdpApiKey && facilitatorHeaders && Object.keys(facilitatorHeaders).some((h) => h.toLowerCase() === 'authorization')) {
    throw new ConfigError(
      'X402_FACILITATOR_HEADERS',
      'sets Authorization, which CDP_API_KEY_ID/CDP_API_KEY_SECRET sign afresh for every call: drop one of them',
    )
  }
  const { networks, rpc, reconcileRpc, paidToDevAddress, ...offered } = readNetworks(env, { payTo, paymentMode: paymentMode ?? 'local' })
  if (nodeEnv === 'production') requirePayee(env, payTo, paidToDevAddress)
  const network = networks[0]!
  const settlerPrivateKey = read(env, 'X402_SETTLER_PRIVATE_KEY') as `0x${string}` | undefined
  if (paymentMode === 'self' && !settlerPrivateKey) throw new ConfigError('X402_SETTLER_PRIVATE_KEY', 'is required when PAYMENT_MODE=self')
  const ledgerPath = (read(env, 'LEDGER_PATH') as string | undefined) ?? 'var/ledger.sqlite'
  const reusePort = read(env, 'REUSE_PORT') === 'true'
  const ledgerUrl = readLedgerUrl(env)
  if (reusePort && ledgerUrl) {
    throw new ConfigError(
      'REUSE_PORT',
      'shares one port among instances of one ledger file; with LEDGER_URL give each instance its own PORT and put a load balancer in front (docs/operations.md)',
    )
  }
  if (reusePort && ledgerPath === ':memory:') {
    throw new ConfigError(
      'REUSE_PORT',
      'needs a ledger file shared by the instances on the port, not LEDGER_PATH=:memory: (each instance would keep its own ledger: one payment could be served once by each)',
    )
  }
  if (reusePort && port === 0)
    throw new ConfigError('REUSE_PORT', 'needs a fixed PORT (PORT=0 picks a different free port for each instance)')
  read(env, 'ENV_FILE') // read earlier by env-file.ts; validated here with the rest
  const publicBaseUrl = ((read(env, 'PUBLIC_BASE_URL') as string | undefined) ?? `http://localhost:${port}`).replace(/\/+$/, '')
  const config: Config = {
    port,
    // Only a production seller is reachable from other machines by default: a development instance takes
    // offline-only payments and shows its metrics openly.
    host: (read(env, 'HOST') as string | undefined) ?? (nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1'),
    reusePort,
    shutdownTimeoutMs: ((read(env, 'SHUTDOWN_TIMEOUT_SECONDS') as number | undefined) ?? 30) * 1000,
    publicBaseUrl,
    mcpAllowedOrigins: allowedOriginsFrom(read(env, 'MCP_ALLOWED_ORIGINS') as string | undefined),
    payTo: payTo ?? DEV_PAY_TO,
    payToIsDevDefault: paidToDevAddress.length > 0,
    network,
    ...offered, // the offers, and batch-settlement's settings with BATCH_NETWORKS
    paymentMode: paymentMode ?? 'local',
    ...(facilitatorUrl ? { facilitatorUrl: facilitatorUrl.replace(/\/+$/, '') } : {}),
    facilitatorTimeoutMs: ((read(env, 'X402_FACILITATOR_TIMEOUT_SECONDS') as number | undefined) ?? 30) * 1000,
    ...readAbuseLimits(env),
    ...(facilitatorHeaders ? { facilitatorHeaders } : {}),
    ...(cdpApiKey ? { cdpApiKey } : {}),
    rpcUrl: rpc[network]!.url,
    rpcUrlIsDefault: rpc[network]!.isDefault,
    rpc,
    reconcileRpc,
    ...(settlerPrivateKey ? { settlerPrivateKey } : {}),
    reconcileSeconds: (read(env, 'RECONCILE_SECONDS') as number | undefined) ?? 30,
    ...readSettleTiming(env, paymentMode ?? 'local'),
    ...readTrustedProxies(env),
    ...(env.METRICS_TOKEN ? { metricsToken: read(env, 'METRICS_TOKEN') as string } : {}),
    ...readDatasets(env),
    intelligenceCacheTtlSeconds: (read(env, 'INTELLIGENCE_CACHE_TTL_SECONDS') as number | undefined) ?? 3600,
    warmUpSampleAnswers: ((read(env, 'WARM_UP_SAMPLE_ANSWERS') as string | undefined) ?? String(nodeEnv === 'production')) === 'true',
    kolCacheTtlSeconds: (read(env, 'KOL_CACHE_TTL_SECONDS') as number | undefined) ?? 21_600,
    ledgerPath,
    ...(ledgerUrl ? { ledgerUrl } : {}),
    ...readKeeping(env),
    logLevel: (read(env, 'LOG_LEVEL') as LogLevel | undefined) ?? 'info',
    nodeEnv,
    providers: readProviders(env),
  }
  keepSecretsOf(config, env)
  return Object.freeze(config)
}

/** How long and how much this service keeps: stored results, computed answers in memory, ledger history. */
function readKeeping(
  env: Record<string, string | undefined>,
): Pick<Config, 'artifactTtlSeconds' | 'resultCacheMaxBytes' | 'duckdbMemoryLimitMb' | 'ledgerRetention'> {
  const artifactTtlSeconds = ((read(env, 'ARTIFACT_TTL_HOURS') as number | undefined) ?? 24) * 3600
  const servedDays = env.LEDGER_KEEP_SERVED_DAYS ? (read(env, 'LEDGER_KEEP_SERVED_DAYS') as number) : null
  if (servedDays !== null && servedDays * 86400 < artifactTtlSeconds)
    throw new ConfigError(
      'LEDGER_KEEP_SERVED_DAYS',
      `must keep served payments at least as long as their stored results (ARTIFACT_TTL_HOURS=${artifactTtlSeconds / 3600})`,
    )
  return {
    artifactTtlSeconds,
    resultCacheMaxBytes: ((read(env, 'RESULT_CACHE_MAX_MB') as number | undefined) ?? 96) * 1024 * 1024,
    duckdbMemoryLimitMb: (read(env, 'DUCKDB_MEMORY_LIMIT_MB') as number | undefined) ?? 512,
    ledgerRetention: {
      failedSeconds: ((read(env, 'LEDGER_KEEP_FAILED_DAYS') as number | undefined) ?? 7) * 86400,
      servedSeconds: servedDays === null ? null : servedDays * 86400,
    },
  }
}

/** What bounds the work other people can make this service do: rate limits, verification calls, the facilitator's outage time. */
function readAbuseLimits(
  env: Record<string, string | undefined>,
): Pick<Config, 'rateLimitIpPerMinute' | 'rateLimitPayerPerMinute' | 'rateLimitIpv6Prefix' | 'verifyLimits' | 'facilitatorOutageMs'> {
  return {
    rateLimitIpPerMinute: (read(env, 'RATE_LIMIT_IP_PER_MINUTE') as number | undefined) ?? 600,
    rateLimitPayerPerMinute: (read(env, 'RATE_LIMIT_PAYER_PER_MINUTE') as number | undefined) ?? 120,
    rateLimitIpv6Prefix: (read(env, 'RATE_LIMIT_IPV6_PREFIX') as number | undefined) ?? 64,
    verifyLimits: {
      concurrency: (read(env, 'X402_VERIFY_CONCURRENCY') as number | undefined) ?? 32,
      newPayersPerSecond: (read(env, 'X402_VERIFY_NEW_PAYERS_PER_SECOND') as number | undefined) ?? 20,
    },
    facilitatorOutageMs: ((read(env, 'X402_FACILITATOR_OUTAGE_SECONDS') as number | undefined) ?? 30) * 1000,
  }
}

/** SETTLE_MODE and the limits of deferred settlement. */
function readSettleTiming(env: Record<string, string | undefined>, paymentMode: PaymentMode): Pick<Config, 'settleMode' | 'deferred'> {
  const settleMode = (read(env, 'SETTLE_MODE') as Config['settleMode'] | undefined) ?? 'sync'
  if (settleMode === 'deferred' && paymentMode === 'local')
    throw new ConfigError('SETTLE_MODE', 'deferred needs PAYMENT_MODE=facilitator or self (local mode settles nothing)')
  const maxPrice = read(env, 'DEFERRED_MAX_PRICE_USD') as string | undefined
  return {
    settleMode,
    deferred: {
      maxUnsettledUsd: (read(env, 'DEFERRED_MAX_UNSETTLED_USD') as string | undefined) ?? '1',
      maxPriceUsd: maxPrice ?? null,
      concurrency: (read(env, 'DEFERRED_SETTLE_CONCURRENCY') as number | undefined) ?? 8,
    },
  }
}

/**
 * CDP_API_KEY_ID and CDP_API_KEY_SECRET, both or neither. Read whatever the payment mode (a broken key
 * must not wait for the day facilitator mode is switched on); used in facilitator mode only. The secret
 * bypasses read(): its errors must never quote the value.
 */
function readCdpApiKey(env: Record<string, string | undefined>): CdpApiKey | undefined {
  const id = read(env, 'CDP_API_KEY_ID') as string | undefined
  const raw = env.CDP_API_KEY_SECRET?.trim() ? env.CDP_API_KEY_SECRET : undefined
  if (!id && !raw) return undefined
  if (!id) throw new ConfigError('CDP_API_KEY_ID', 'is required when CDP_API_KEY_SECRET is set (the id of that key)')
  if (!raw) throw new ConfigError('CDP_API_KEY_SECRET', 'is required when CDP_API_KEY_ID is set (the secret of that key)')
  const parsed = parseCdpSecret(raw)
  if ('error' in parsed) throw new ConfigError('CDP_API_KEY_SECRET', `invalid value (not shown): ${parsed.error}`)
  return { id, ...parsed }
}

/** LEDGER_URL, checked without ever quoting it: it usually carries the database password. */
function readLedgerUrl(env: Record<string, string | undefined>): string | undefined {
  const raw = env.LEDGER_URL?.trim()
  if (!raw) return undefined
  let ok = Value.Check(ENV.LEDGER_URL.schema, raw)
  try {
    ok &&= Boolean(new URL(raw).hostname)
  } catch {
    ok = false
  }
  if (!ok) throw new ConfigError('LEDGER_URL', 'invalid value (not shown): expected postgres://user:password@host:5432/database')
  return raw
}

/** TRUSTED_PROXIES and the header they write (header names are case-insensitive, so is its value). */
function readTrustedProxies(env: Record<string, string | undefined>): { trustedProxies?: ProxyTrust } {
  const list = read(env, 'TRUSTED_PROXIES') as string | undefined
  const header = read({ CLIENT_IP_HEADER: env.CLIENT_IP_HEADER?.toLowerCase() }, 'CLIENT_IP_HEADER') as ClientIpHeader | undefined
  if (!list) {
    if (header) throw new ConfigError('CLIENT_IP_HEADER', 'has no effect without TRUSTED_PROXIES (the proxies whose header is believed)')
    return {}
  }
  try {
    return { trustedProxies: ProxyTrust.parse(list, header ?? 'x-forwarded-for') }
  } catch (error) {
    throw new ConfigError('TRUSTED_PROXIES', `invalid value: ${(error as Error).message}`)
  }
}

function readProviders(env: Record<string, string | undefined>): ProviderSettings {
  // Every variable is validated, set provider or not: a typo in a timeout must not wait for the day its URL is set.
  const str = (name: EnvName) => read(env, name) as string | undefined
  const int = (name: EnvName, fallback: number) => (read(env, name) as number | undefined) ?? fallback
  const price = (name: EnvName) => {
    const v = str(name)
    return v === undefined ? {} : { priceNanoUsd: usdToNano(v) }
  }
  const search = <V extends WebVendor | NativeVendor>(role: 'WEB' | 'NATIVE'): SearchSettings<V> | null => {
    // Every variable is read (validated) first; the provider exists once it has a URL.
    const vendor = (str(`${role}_SEARCH_PROVIDER`) ?? 'generic') as V
    // What the vendor's adapter declares: where it lives, its timeout and pages when not set.
    const facts = role === 'WEB' ? WEB_ADAPTERS[vendor as WebVendor].facts : NATIVE_ADAPTERS[vendor as NativeVendor].facts
    const url = str(`${role}_SEARCH_URL`) ?? facts.url
    const key = str(`${role}_SEARCH_KEY`)
    const timeoutMs = int(`${role}_SEARCH_TIMEOUT_MS`, facts.timeoutMs)
    const pages = read(env, `${role}_SEARCH_MAX_PAGES`) as number | undefined
    const priced = price(`${role}_SEARCH_PRICE_USD`)
    if (!url) {
      if (vendor !== 'generic')
        throw new ConfigError(
          `${role}_SEARCH_URL`,
          `is required with ${role}_SEARCH_PROVIDER=${vendor} (the address of your ${vendor} instance)`,
        )
      return null
    }
    if (!key && facts.keyRequired)
      throw new ConfigError(`${role}_SEARCH_KEY`, `is required with ${role}_SEARCH_PROVIDER=${vendor} (your ${vendor} API key)`)
    return {
      vendor,
      url: url.replace(/\/+$/, ''),
      ...(key ? { key } : {}),
      timeoutMs,
      maxPages: pages ?? facts.maxPages,
      ...priced,
    }
  }
  const web = search<WebVendor>('WEB')
  const nativeVendor = (str('NATIVE_SEARCH_PROVIDER') ?? 'generic') as NativeVendor
  const platforms = (str('NATIVE_SEARCH_PLATFORMS') ?? (NATIVE_ADAPTERS[nativeVendor].facts.platforms ?? PLATFORM_TOKENS).join(',')).split(
    ',',
  ) as Platform[]
  const native = search<NativeVendor>('NATIVE')
  const llm = { baseUrl: str('LLM_BASE_URL'), key: str('LLM_API_KEY'), model: str('LLM_MODEL'), timeoutMs: int('LLM_TIMEOUT_MS', 20_000) }
  if (llm.baseUrl && !llm.model) throw new ConfigError('LLM_MODEL', 'is required when LLM_BASE_URL is set (the model to ask)')
  const input = str('LLM_PRICE_INPUT_USD_PER_MTOK')
  const output = str('LLM_PRICE_OUTPUT_USD_PER_MTOK')
  const cached = str('LLM_PRICE_CACHED_INPUT_USD_PER_MTOK')
  if (cached !== undefined && input === undefined)
    throw new ConfigError(
      'LLM_PRICE_CACHED_INPUT_USD_PER_MTOK',
      'is set without LLM_PRICE_INPUT_USD_PER_MTOK and LLM_PRICE_OUTPUT_USD_PER_MTOK',
    )
  if ((input === undefined) !== (output === undefined))
    throw new ConfigError(
      input === undefined ? 'LLM_PRICE_INPUT_USD_PER_MTOK' : 'LLM_PRICE_OUTPUT_USD_PER_MTOK',
      'is required with the other token price (input and output are billed apart)',
    )
  const responseFormat = (str('LLM_RESPONSE_FORMAT') ?? 'auto') as LlmFormat
  return {
    webSearch: web,
    nativeSearch: native ? { ...native, platforms: [...new Set(platforms)] } : null,
    llm:
      llm.baseUrl && llm.model
        ? {
            ...llm,
            baseUrl: llm.baseUrl,
            model: llm.model,
            responseFormat,
            ...(input !== undefined && output !== undefined
              ? {
                  prices: {
                    inputPerMillionNanoUsd: usdToNano(input),
                    outputPerMillionNanoUsd: usdToNano(output),
                    ...(cached !== undefined ? { cachedInputPerMillionNanoUsd: usdToNano(cached) } : {}),
                  },
                }
              : {}),
          }
        : null,
  }
}
