/**
 * `providers check`: asks every configured live provider once per lane it serves, the way a paid request
 * would, and says what came back and what that means for the routes: items, how far back their dates
 * reach, whether creators (authors, followers, engagement) are present, latency. Exit 1 names a provider
 * that cannot be reached or answers something that is not its API; the keys are never printed.
 */
import { alignedColumns } from './columns'
import { ConfigError, nanoToUsd, type ProviderSpend } from '../core'
import { type Config, loadConfig } from '../config'
import { type Platform, PLATFORM_TOKENS } from '../catalog'
import {
  ask,
  configHints,
  type EvidenceItem,
  type EvidenceProvider,
  type EvidenceSources,
  isLive,
  LANE_POLICY,
  liveSources,
  ProviderError,
  type SearchResult,
  STATIC_ENTITIES,
  WEB_QUERY,
  withDeadline,
} from '../intelligence'

const HELP = `providers check [--keyword WORD] [--days N] [--json]
  asks each configured live provider (WEB_SEARCH_*, NATIVE_SEARCH_*, LLM_*) once per lane it serves, as a
  /v1/china/trends request over N days (default 30: the last 2N days, split in two windows) would, and
  prints what came back: items, dates and how far back they reach, authors, followers, engagement,
  latency, and what that means for the routes. The model is asked once, with the items found.
  Each call is a real, billed request to the provider.

Exit status: 0 every provider answered its API, 1 a provider cannot be reached or answered something
that is not its API (named), 2 bad usage or configuration.
`

const DAY_MS = 86_400_000

type Summariser = NonNullable<EvidenceSources['summariser']>

export interface CallCheck {
  provider: string
  role: 'native' | 'web'
  lane: Platform
  ok: boolean
  status: string
  ms: number
  requests: number
  items: number
  relevant: number
  dropped: Record<string, number>
  /** Days back from now that the oldest dated result reaches. */
  reach_days: number | null
  /** Share of each window the answer covers (prior, recent). */
  covered: { window: string; covered_share: number; capped: boolean }[]
  with_author: number
  with_followers: number
  with_engagement: number
  error?: string
}

const share = (items: readonly EvidenceItem[], has: (item: EvidenceItem) => boolean) =>
  items.length ? Math.round((100 * items.filter(has).length) / items.length) : 0

export async function checkCall(
  provider: EvidenceProvider,
  lane: Platform,
  keyword: string,
  days: number,
  now: number,
  found: EvidenceItem[],
): Promise<CallCheck> {
  const asked = ask(STATIC_ENTITIES, keyword)
  const to = new Date(now)
  const split = new Date(now - days * DAY_MS)
  const from = new Date(now - 2 * days * DAY_MS)
  const request = {
    platform: lane,
    step: provider.role,
    keyword,
    match: asked.match,
    q: provider.role === 'native' ? asked.query : WEB_QUERY[lane](asked.query),
    from,
    to,
    split,
    limit: 50,
  } as const
  const started = performance.now()
  const base = { provider: provider.name, role: provider.role, lane }
  try {
    const result: SearchResult = await withDeadline(provider.name, provider.timeoutMs, (signal) => provider.search(request, signal))
    const ms = Math.round(performance.now() - started)
    const relevant = result.items.filter((i) => asked.match.relevance(i) > 0)
    found.push(...relevant)
    const oldest = result.items.reduce((t, i) => Math.min(t, i.publishedAt.getTime()), Infinity)
    return {
      ...base,
      ok: true,
      status: result.items.length ? 'ok' : 'empty',
      ms,
      requests: result.requests,
      items: result.items.length,
      relevant: relevant.length,
      dropped: { ...result.dropped, off_topic: result.items.length - relevant.length },
      reach_days: Number.isFinite(oldest) ? Math.round((now - oldest) / DAY_MS) : null,
      covered: result.coverage.map((entry) => ({
        window:
          entry.from.getTime() === from.getTime() && entry.to.getTime() === to.getTime()
            ? 'both'
            : entry.from.getTime() === from.getTime()
              ? 'prior'
              : 'recent',
        covered_share: entry.coveredFrom
          ? Math.round(
              (100 * (entry.to.getTime() - Math.max(entry.coveredFrom.getTime(), entry.from.getTime()))) /
                (entry.to.getTime() - entry.from.getTime()),
            ) / 100
          : 0,
        capped: entry.capped,
      })),
      with_author: share(result.items, (i) => i.author !== null),
      with_followers: share(result.items, (i) => i.authorFollowers !== null),
      with_engagement: share(result.items, (i) => i.engagement !== null),
      ...(result.partial ? { error: result.partial } : {}),
    }
  } catch (thrown) {
    const error = thrown instanceof ProviderError ? thrown : new ProviderError('unavailable', provider.name, String(thrown))
    return {
      ...base,
      ok: error.kind === 'rate_limited',
      status: error.kind,
      ms: Math.round(performance.now() - started),
      requests: 1,
      items: 0,
      relevant: 0,
      dropped: {},
      reach_days: null,
      covered: [],
      with_author: 0,
      with_followers: 0,
      with_engagement: 0,
      error: error.message,
    }
  }
}

/** What a check means for the routes, in sentences. */
function meaning(checks: readonly CallCheck[], days: number, hasNative: boolean): string[] {
  const out: string[] = []
  if (!hasNative)
    out.push(
      'No native provider: web search gives no creators (authors, followers, engagement), so /v1/china/kols and /v1/kol/shortlist answer 422 native_provider_required. Set NATIVE_SEARCH_PROVIDER to sell them.',
    )
  for (const check of checks) {
    const who = `${check.provider} (${check.role}, ${check.lane})`
    if (!check.ok) {
      out.push(
        `${who} failed: ${check.error}. Its lane falls back (${LANE_POLICY[check.lane]}); with no other provider the routes answer 502 provider_unavailable (never charged).`,
      )
      continue
    }
    if (check.status === 'rate_limited') {
      out.push(`${who} is rate-limiting this service now: ${check.error}.`)
      continue
    }
    if (check.items === 0) out.push(`${who} returned no dated results for the test keyword.`)
    const thin = check.covered.filter((w) => w.covered_share < 0.5)
    if (check.items > 0 && thin.length) {
      out.push(
        `${who}: its results reach back ${check.reach_days ?? 0} days; the ${thin.map((w) => w.window).join(' and ')} window${thin.length > 1 ? 's are' : ' is'} not covered, so a ${days}-day trend from it alone says insufficient_evidence (never a direction from an uncovered window).`,
      )
    }
    if (check.covered.some((w) => w.capped))
      out.push(
        `${who} stopped at its page budget with more results left, ranked by relevance: counts of a capped window are lower bounds (raise *_SEARCH_MAX_PAGES to reach further, at a cost per page).`,
      )
    if (check.role === 'native' && check.items > 0 && check.with_followers < 50)
      out.push(`${who}: only ${check.with_followers}% of its items carry follower counts; creators without them are not shortlisted.`)
    if (check.dropped.undated)
      out.push(`${who}: ${check.dropped.undated} results had no readable date and are dropped (counted in data_quality.dropped).`)
  }
  return out
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

interface CheckOptions {
  keyword: string
  days: number
  json: boolean
}

/** The options after `providers check`; bad usage exits 2. */
function parseCheckOptions(rest: readonly string[]): CheckOptions {
  let keyword = '露营'
  let days = 30
  let json = false
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === '--json') json = true
    else if (arg === '--keyword') keyword = rest[++i] ?? fail('--keyword needs a word', 2)
    else if (arg === '--days') {
      days = Number(rest[++i])
      if (!Number.isInteger(days) || days < 1 || days > 365) fail('--days: a whole number of days, 1-365', 2)
    } else fail(`Unknown option "${arg}".\n\n${HELP}`, 2)
  }
  return { keyword, days, json }
}

/** The configuration; an invalid one exits 2. */
/** The configuration; a bad one exits 2, saying so as JSON when JSON was asked for (a script reads stdout either way). */
function loadConfigOrExit(json = false): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: 'configuration', setting: error.variable, message: error.message } }, null, 2)}\n`,
      )
    fail(`Configuration error: ${error.message}`, 2)
  }
}

/** Asks every native provider on each lane it serves and every web provider on every lane, all at once. */
function checkSearchProviders(sources: EvidenceSources, options: CheckOptions, now: number, found: EvidenceItem[]): Promise<CallCheck[]> {
  const { keyword, days } = options
  const calls: Promise<CallCheck>[] = []
  for (const p of sources.native)
    for (const lane of PLATFORM_TOKENS.filter((l) => p.serves(l))) calls.push(checkCall(p, lane, keyword, days, now, found))
  for (const p of sources.web) for (const lane of PLATFORM_TOKENS) calls.push(checkCall(p, lane, keyword, days, now, found))
  return Promise.all(calls)
}

export interface ModelCheck {
  provider: string
  ok: boolean
  ms: number
  format?: string
  themes?: number
  tokens?: string
  error?: string
}

/** Asks the model once, with the on-topic items the search providers found. */
export async function checkModel(llm: Summariser, keyword: string, found: EvidenceItem[]): Promise<ModelCheck> {
  const spend: ProviderSpend[] = []
  const started = performance.now()
  try {
    const summary = await withDeadline(llm.name, llm.timeoutMs, (signal) =>
      llm.summarise({ keyword, platform: 'all', items: found, terms: [] }, signal, spend),
    )
    const used = spend[0]
    return {
      provider: llm.name,
      ok: true,
      ms: Math.round(performance.now() - started),
      format: llm.responseFormat,
      themes: summary.themes.length,
      tokens: used
        ? `${used.inputTokens} in, ${used.outputTokens} out${used.costNanoUsd !== null ? ` (USD ${nanoToUsd(used.costNanoUsd)})` : ''}`
        : 'not reported',
    }
  } catch (error) {
    return {
      provider: llm.name,
      ok: false,
      ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    }
  }
}

const TABLE_HEADER = [
  'provider',
  'role',
  'lane',
  'status',
  'ms',
  'req',
  'items',
  'on topic',
  'reach (days)',
  'covered prior/recent',
  'author %',
  'followers %',
  'engagement %',
]

/** One row per call, columns padded to their widest cell. */
function checksTable(checks: readonly CallCheck[]): string {
  const rows = [
    TABLE_HEADER,
    ...checks.map((check) => [
      check.provider,
      check.role,
      check.lane,
      check.status,
      String(check.ms),
      String(check.requests),
      String(check.items),
      String(check.relevant),
      check.reach_days === null ? '—' : String(check.reach_days),
      check.covered.map((w) => `${Math.round(w.covered_share * 100)}%${w.capped ? ' capped' : ''}`).join(' / ') || '—',
      String(check.with_author),
      String(check.with_followers),
      String(check.with_engagement),
    ]),
  ]
  return alignedColumns(rows)
}

interface CheckReport {
  options: CheckOptions
  checks: CallCheck[]
  model?: ModelCheck
  notes: string[]
}

/** Prints the report: JSON with --json, otherwise the table, the model line and the notes. */
function printReport({ options, checks, model, notes }: CheckReport): void {
  const { keyword, days } = options
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ keyword, days, calls: checks, model: model ?? null, meaning: notes }, null, 2)}\n`)
    return
  }
  const modelLine = model
    ? `\nModel: ${model.provider}: ${model.ok ? `answered ${model.themes} themes in ${model.ms} ms with ${model.format}; tokens ${model.tokens}` : `FAILED: ${model.error}`}\n`
    : '\nModel: none (extractive themes)\n'
  process.stdout.write(
    `Checked "${keyword}" over ${days}-day windows:\n\n${checksTable(checks)}\n${modelLine}\n${notes.map((n) => `- ${n}`).join('\n')}\n`,
  )
}

/** Each answering provider's findings about its vendor's own behaviour (EvidenceProvider.diagnose). */
async function diagnoses(sources: EvidenceSources, checks: readonly CallCheck[], keyword: string): Promise<string[]> {
  const answering = [...sources.native, ...sources.web].filter(
    (p) => p.diagnose && checks.some((c) => c.provider === p.name && c.ok && c.status !== 'rate_limited'),
  )
  const query = WEB_QUERY.xiaohongshu(ask(STATIC_ENTITIES, keyword).query)
  const found = await Promise.all(
    answering.map((p) =>
      withDeadline(p.name, p.timeoutMs, (signal) => p.diagnose!(p.role === 'web' ? query : keyword, signal)).catch((e: unknown) => [
        `${p.name}: could not be diagnosed: ${e instanceof Error ? e.message : String(e)}`,
      ]),
    ),
  )
  return found.flat()
}

/** The providers that failed, each named once. */
function brokenProviders(checks: readonly CallCheck[], model: ModelCheck | undefined): string[] {
  return [
    ...new Set(
      checks
        .filter((c) => !c.ok)
        .map((c) => c.provider)
        .concat(model && !model.ok ? [model.provider] : []),
    ),
  ]
}

export async function providers(args: string[]): Promise<void> {
  const [sub, ...rest] = args
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    process.stdout.write(HELP)
    if (sub === undefined) process.exit(2)
    return
  }
  if (sub !== 'check') fail(`Unknown providers command "${sub}".\n\n${HELP}`, 2)
  const options = parseCheckOptions(rest)
  const config = loadConfigOrExit(options.json)
  if (!isLive(config.providers)) {
    const none =
      'No live provider is configured: the China routes answer from the sample corpus. Nothing to check (see docs/intelligence.md, "Going live").'
    if (options.json) printReport({ options, checks: [], notes: [none] })
    else process.stdout.write(`${none}\n`)
    return
  }
  const sources = liveSources(config.providers)
  const found: EvidenceItem[] = []
  const checks = await checkSearchProviders(sources, options, Date.now(), found)
  // The model is asked after the searches: it summarises what they found.
  const model = sources.summariser ? await checkModel(sources.summariser, options.keyword, found) : undefined
  const notes = [
    ...configHints(config.providers),
    ...meaning(checks, options.days, sources.native.length > 0),
    ...(await diagnoses(sources, checks, options.keyword)),
  ]
  if (model && !model.ok) notes.push(`${model.provider} failed: ${model.error}. Trend themes fall back to the extractive ones.`)
  printReport({ options, checks, model, notes })
  const broken = brokenProviders(checks, model)
  if (broken.length) fail(`Failing: ${broken.join(', ')}`, 1)
}
