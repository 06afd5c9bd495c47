/**
 * `doctor`'s checks of what serves a paid answer besides the payment itself: the ledger, the datasets,
 * the live evidence providers, and how buyers reach the service (the public URL and the proxies).
 */
import { statfsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Config } from '../../config'
import { PLATFORM_TOKENS } from '../../catalog'
import { DatasetStore, DuckDb, isSample, readManifest } from '../../data'
import {
  ask,
  configHints,
  type EvidenceItem,
  type EvidenceProvider,
  isLive,
  liveSources,
  STATIC_ENTITIES,
  summariserOf,
  WEB_QUERY,
  withDeadline,
} from '../../intelligence'
import { postgresLedgerState, sqliteLedgerPayments } from '../../ledger'
import { redactUrl } from '../../postgres'
import { datasetIndexers } from '../../composition'
import { block, CHECK_TIMEOUT_MS, messageOf, ok, warn, type Finding } from './doctor-finding'
import { checkCall, checkModel } from '../providers'
import { STRONG_TOKEN_BITS, tokenBits } from '../../http'

/** Below this, a disk that fills stops the ledger taking payments (docs/operations.md). */
const LOW_DISK_BYTES = 512 * 1024 * 1024
const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1?\]|0\.0\.0\.0)$/i
/** Addresses only a private network reaches: RFC 1918, IPv6 unique local and link-local, mDNS names. */
const PRIVATE_HOSTS =
  /^(10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|\[f[cd][0-9a-f]*:.*\]|\[fe[89ab][0-9a-f]*:.*\]|.*\.local)$/i

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`

async function postgresLedger(url: string): Promise<Finding> {
  const check = 'ledger'
  try {
    const state = await postgresLedgerState(url)
    if (state.readOnly)
      return block(
        check,
        `PostgreSQL at ${redactUrl(url)} is read-only (a replica?): no payment could be recorded`,
        'LEDGER_URL (the primary)',
      )
    if (state.version > state.latest)
      return block(
        check,
        `the ledger's schema is at version ${state.version}, newer than this release (${state.latest})`,
        'run the newer release',
      )
    if (!state.mayWrite)
      return block(
        check,
        `PostgreSQL at ${redactUrl(url)}: this role may not ${state.version === 0 ? 'create the ledger tables' : 'write the payments table'}`,
        'GRANT the role CREATE on its schema (or INSERT, UPDATE, DELETE on the ledger tables)',
      )
    const schema = state.version === 0 ? 'no schema yet (created at start)' : `schema version ${state.version} of ${state.latest}`
    return ok(check, `PostgreSQL at ${redactUrl(url)}: writable, ${schema}`)
  } catch (error) {
    return block(check, `PostgreSQL at ${redactUrl(url)}: ${messageOf(error)}`, 'LEDGER_URL')
  }
}

/** The ledger this service records payments in: open, writable (the write lock taken), with room on its disk. */
export async function ledger(config: Readonly<Config>): Promise<Finding> {
  const check = 'ledger'
  if (config.ledgerUrl) return postgresLedger(config.ledgerUrl)
  if (config.ledgerPath === ':memory:') {
    const detail = 'LEDGER_PATH=:memory: forgets every payment at a restart: a proof could be served again'
    return (config.nodeEnv === 'production' ? block : warn)(check, detail, 'LEDGER_PATH=var/ledger.sqlite (a file)')
  }
  const path = resolve(config.ledgerPath)
  try {
    const payments = sqliteLedgerPayments(path)
    const { bavail, bsize } = statfsSync(dirname(path))
    const free = bavail * bsize
    const detail = `${path}: writable, ${payments} payments recorded, ${gb(free)} free`
    if (free < LOW_DISK_BYTES) return warn(check, `${detail}: a full disk stops payments`, 'free space, or LEDGER_PATH on another disk')
    return ok(check, detail)
  } catch (error) {
    return block(check, `cannot open and write ${path}: ${messageOf(error)}`, 'LEDGER_PATH (a file in a folder this user can write)')
  }
}

/** The datasets load and index as the service would load them; the shipped samples are said to be samples. */
export async function datasets(config: Readonly<Config>): Promise<Finding> {
  const check = 'datasets'
  const db = await DuckDb.open(1, config.duckdbMemoryLimitMb)
  try {
    const store = await DatasetStore.open(db, config.datasetsDir, datasetIndexers())
    store.close()
    const manifest = readManifest(config.datasetsDir)
    const entries = Object.entries(manifest.datasets)
    const samples = entries.filter(([, entry]) => isSample(manifest, entry)).map(([name]) => name)
    const detail = `${entries.length} datasets in ${config.datasetsDir} load and index`
    if (samples.length > 0)
      return warn(
        check,
        `${detail}; ${samples.length === entries.length ? 'all are' : `${samples.join(', ')} are`} the generated samples (every answer says so)`,
        "import the data team's files: npm start -- data import FILE (docs/data.md)",
      )
    return ok(check, `${detail}; all imported`)
  } catch (error) {
    return block(check, `${config.datasetsDir}: ${messageOf(error)}`, 'DATASETS_DIR, then npm start -- data validate FILE (docs/data.md)')
  } finally {
    await db.close()
  }
}

/** Each live search provider asked once (one lane), then the model once: a real, billed call each. */
export async function providers(config: Readonly<Config>, calls: boolean): Promise<Finding[]> {
  const check = 'evidence providers'
  const live = isLive(config.providers)
  const searchers = live
    ? (() => {
        const sources = liveSources(config.providers)
        return [...sources.native, ...sources.web]
      })()
    : []
  const summariser = summariserOf(config.providers)
  const findings: Finding[] = []
  if (!live)
    findings.push(
      warn(
        check,
        'no search provider: the China routes answer from the embedded sample corpus (every answer says so)',
        'WEB_SEARCH_* and NATIVE_SEARCH_* (docs/intelligence.md, "Going live")',
      ),
    )
  // Settings that cost answers with a vendor (a TikHub timeout under its documented minimum, a host China cannot reach).
  for (const hint of configHints(config.providers)) findings.push(warn(check, hint, hint.split(' ')[0]!.split('=')[0]!))
  if (!calls) {
    const named = [...searchers.map((p) => p.name), ...(summariser ? [`${summariser.name} (model)`] : [])]
    if (named.length) findings.push(ok(check, `${named.join(', ')} configured; not asked (--no-provider-calls)`))
    return findings
  }
  const found: EvidenceItem[] = []
  const now = Date.now()
  const asked = await Promise.all(searchers.map((provider) => askSearcher(provider, now, found)))
  findings.push(...asked)
  // What each answering vendor's own behaviour costs the answers (engines a time range silences, undated results).
  const answering = searchers.filter((provider, index) => provider.diagnose && asked[index]!.status === 'ok')
  for (const notes of await Promise.all(answering.map((provider) => diagnosed(provider))))
    findings.push(...notes.map((note) => warn(check, note, 'docs/intelligence.md, "Going live"')))
  if (summariser) {
    const model = await checkModel(summariser, KEYWORD, found)
    findings.push(
      model.ok
        ? ok(check, `${model.provider} (model) answered in ${model.ms} ms`)
        : warn(
            check,
            `${model.provider} (model) failed: ${model.error}; themes fall back to extractive ones`,
            'LLM_BASE_URL, LLM_API_KEY, LLM_MODEL',
          ),
    )
  }
  return findings
}

/** A provider's findings about its vendor (EvidenceProvider.diagnose), or why it could not be diagnosed. */
function diagnosed(provider: EvidenceProvider): Promise<string[]> {
  const query = WEB_QUERY.xiaohongshu(ask(STATIC_ENTITIES, KEYWORD).query)
  return withDeadline(provider.name, provider.timeoutMs, (signal) =>
    provider.diagnose!(provider.role === 'web' ? query : KEYWORD, signal),
  ).catch((e: unknown) => [`${provider.name}: could not be diagnosed: ${e instanceof Error ? e.message : String(e)}`])
}

/** A keyword every China lane has posts about. */
const KEYWORD = '露营'

async function askSearcher(provider: EvidenceProvider, now: number, found: EvidenceItem[]): Promise<Finding> {
  const check = 'evidence providers'
  const lane = PLATFORM_TOKENS.find((l) => provider.serves(l)) ?? PLATFORM_TOKENS[0]!
  const call = await checkCall(provider, lane, KEYWORD, 30, now, found)
  const what = `${provider.name} (${provider.role}, ${lane})`
  const fix = `${provider.role === 'native' ? 'NATIVE' : 'WEB'}_SEARCH_URL and _KEY (npm start -- providers check says more)`
  if (!call.ok) return block(check, `${what}: ${call.status}: ${call.error ?? ''}`.trim(), fix)
  if (call.status === 'rate_limited') return warn(check, `${what} answered 429 (rate limited): ${call.error ?? ''}`, fix)
  if (call.items === 0) return warn(check, `${what} answered, with no items for a common keyword: check its lanes and quota`, fix)
  return ok(check, `${what} answered ${call.items} items in ${call.ms} ms`)
}

/** PUBLIC_BASE_URL: the address every 402, discovery document and receipt names; asked for /health when it can be. */
export async function publicUrl(config: Readonly<Config>, env: Record<string, string | undefined>): Promise<Finding> {
  const check = 'public URL'
  const url = config.publicBaseUrl
  const fix = 'PUBLIC_BASE_URL=https://api.example.com (the address buyers call)'
  if (!env.PUBLIC_BASE_URL?.trim())
    return block(check, `PUBLIC_BASE_URL is not set: 402s, discovery documents and receipts name ${url}, which buyers cannot reach`, fix)
  const { protocol, hostname } = new URL(url)
  if (LOCAL_HOSTS.test(hostname)) return block(check, `${url} is this machine only: buyers elsewhere cannot reach it`, fix)
  const lan = PRIVATE_HOSTS.test(hostname) ? `; ${hostname} is a private-network address: buyers on the internet cannot reach it` : ''
  const plain = `${protocol === 'http:' ? '; it is plain http: anyone on the path can read the payment headers' : ''}${lan}`
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), redirect: 'manual' })
    const body = (await res.json().catch(() => null)) as { data?: { status?: string; version?: string } } | null
    if (res.status === 200 && body?.data?.status === 'ok') {
      const reached = `${url} answers /health (version ${body.data.version})`
      return plain ? warn(check, `${reached}${plain}`, 'serve it over https at a public address (docs/operations.md)') : ok(check, reached)
    }
    return warn(
      check,
      `${url}/health answered HTTP ${res.status}, not this service${plain}`,
      'the proxy in front of it (docs/operations.md)',
    )
  } catch (error) {
    return warn(check, `${url}/health did not answer from here (${messageOf(error)})${plain}: check it again once the service runs`)
  }
}

/** Behind a TLS proxy, TRUSTED_PROXIES lets each buyer have its own rate limit instead of sharing the proxy's. */
export function proxies(config: Readonly<Config>): Finding {
  const check = 'proxies'
  const trust = config.trustedProxies
  if (trust) return ok(check, `client addresses are read from ${trust.header} sent by ${trust.description}`)
  if (config.publicBaseUrl.startsWith('https:'))
    return warn(
      check,
      'PUBLIC_BASE_URL is https but TRUSTED_PROXIES is not set: behind a TLS proxy, every buyer shares the proxy address and its rate limit',
      "TRUSTED_PROXIES=loopback (or the proxy's address or range); CLIENT_IP_HEADER=forwarded if it writes Forwarded",
    )
  return ok(check, 'no proxy trusted: the address each connection comes from is the client')
}

/** METRICS_TOKEN guards revenue (/metrics, /console) and /ready's details: set, and hard to guess. Never shown. */
export function sellerToken(config: Readonly<Config>): Finding {
  const check = 'seller token'
  const make = 'METRICS_TOKEN=$(openssl rand -hex 32)'
  const token = config.metricsToken
  if (!token)
    return config.nodeEnv === 'production'
      ? warn(check, 'METRICS_TOKEN is not set: /metrics and /console are off, and /ready shows status words only', make)
      : ok(check, 'METRICS_TOKEN is not set: /metrics, /console and the details of /ready are open (development)')
  const bits = tokenBits(token)
  if (bits < STRONG_TOKEN_BITS)
    return warn(check, `METRICS_TOKEN is weak (about ${bits} bits of guessing, under ${STRONG_TOKEN_BITS}): it guards revenue`, make)
  return ok(check, `METRICS_TOKEN guards /metrics, /console and the details of /ready (about ${bits} bits)`)
}
