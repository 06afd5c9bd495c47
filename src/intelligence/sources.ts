/**
 * Where the evidence comes from: live providers when any search provider is configured, otherwise the
 * embedded sample corpus. The two are never mixed, so a live answer never contains sample items.
 */
import type { ProviderSettings } from './provider-settings'
import { dataQuality, type LoadedDataset } from '../data/datasets'
import type { DuckDb } from '../data/duckdb'
import type { EvidenceItem, EvidenceProvider } from './evidence'
import { ChatCompletionsSummariser } from './providers/chat-completions'
import { CorpusProvider, CorpusSearch, READ_MAX_ROWS } from './providers/corpus'
import { searchTable, type CorpusKept } from './providers/corpus-table'
import { prefilterNames, type Matcher } from './relevance'
import type { EntityIndex } from './entities'
import { nativeProvider, webProvider } from './providers/vendors'
import { ProviderHealth } from './provider-health'

export interface EvidenceSources {
  mode: 'sample' | 'live'
  native: readonly EvidenceProvider[]
  web: readonly EvidenceProvider[]
  summariser: ChatCompletionsSummariser | null
  /** End (exclusive) of every evidence window: the day after the corpus ends, or now. */
  asOf(): Date
  /** The data-quality block of an answer, before the per-request provider reports. */
  quality(): EvidenceQualityBase
  /** Live providers: how each one's last call went (for /ready). */
  health?: ProviderHealth
  /** Sample corpus only: builds what its searches read (the name index) ahead of the first request. */
  prepare?(): Promise<void>
  /** Sample corpus only: every creator post (native item) of a window, the population KOLs are scored in, and which pass a prefilter. */
  creatorPosts?(from: Date, to: Date, prefilter: Matcher['prefilter']): Promise<{ posts: CreatorPost[]; candidates: ReadonlySet<string> }>
}

/** A creator's own post with the content category the source files it under (when it does). */
export type CreatorPost = EvidenceItem & { category: string | null }

export interface EvidenceQualityBase {
  sample: boolean
  notice: string
  dataset?: string
  dataset_version?: string
  schema_version?: number
  source_period?: { from: string; to: string }
}

const CORPUS_NOTICE = 'Creators and brands in the evidence corpus are fictional; no live provider is configured.'
const LIVE_NOTICE = 'Live evidence retrieved at request time from the providers listed; figures are as the providers reported them.'

const DAY_MS = 86_400_000

/** The sample corpus as the native and web providers, from what indexCorpus() found. */
export function corpusSources(
  db: DuckDb,
  dataset: LoadedDataset,
  index: CorpusIndex,
  summariser: ChatCompletionsSummariser | null = null,
  /** The entity index in use: the corpus indexes its rows by the index's names (name-postings.ts). */
  entities?: () => EntityIndex,
): EvidenceSources {
  const asOf = new Date(Math.floor(index.last.getTime() / DAY_MS) * DAY_MS + DAY_MS)
  const coverageFrom = new Date(Math.floor(index.first.getTime() / DAY_MS) * DAY_MS)
  const search = new CorpusSearch(
    db,
    index.table,
    entities &&
      (() => {
        const current = entities()
        return { version: current.version, names: prefilterNames(current) }
      }),
    READ_MAX_ROWS,
    index.kept.creators,
  )
  return {
    mode: 'sample',
    native: [new CorpusProvider(search, 'native', coverageFrom)],
    web: [new CorpusProvider(search, 'web', coverageFrom)],
    summariser,
    asOf: () => asOf,
    quality: () => {
      const q = dataQuality(dataset)
      return { ...q, notice: `${q.notice} ${CORPUS_NOTICE}${sampledNotice(index.kept)}` }
    },
    creatorPosts: (from, to, prefilter) => search.creatorPosts(from, to, prefilter),
    prepare: () => search.prepare(),
  }
}

export function liveSources(settings: ProviderSettings, now: () => Date = () => new Date()): EvidenceSources {
  const native = settings.nativeSearch ? [nativeProvider(settings.nativeSearch)] : []
  const web = settings.webSearch ? [webProvider(settings.webSearch)] : []
  return {
    mode: 'live',
    native,
    web,
    summariser: summariserOf(settings),
    asOf: now,
    health: new ProviderHealth(),
    quality: () => ({ sample: false, notice: LIVE_NOTICE }),
  }
}

export const summariserOf = (p: ProviderSettings) => (p.llm ? new ChatCompletionsSummariser(p.llm) : null)

/** Live when a search provider is configured. */
export const isLive = (p: ProviderSettings) => Boolean(p.webSearch || p.nativeSearch)

export interface CorpusIndex {
  /** The search table (see searchTable). */
  table: string
  /** What it holds of the corpus: every post, or a sample (CORPUS_MAX_ROWS). */
  kept: CorpusKept
  /** First and last publication time: sample windows end the day after the last. */
  first: Date
  last: Date
}

/** What an answer on a sampled corpus says of it, once for the whole answer. */
const sampledNotice = (kept: CorpusKept) =>
  kept.oneIn === 1
    ? ''
    : ` The corpus has ${kept.rows.toLocaleString('en')} posts; answers read a stratified sample of about one in ${kept.oneIn} (${kept.kept.toLocaleString('en')} posts, CORPUS_MAX_ROWS), each standing for the posts of its platform and week${kept.creators ? " and of its creator's week" : ''}: counts are estimates${kept.creators ? '' : "; a creator's posts are counted as read"}.`

/** The corpus's search table (every post, or a sample past `maxRows`: CORPUS_MAX_ROWS) and its time span. */
export async function indexCorpus(db: DuckDb, dataset: LoadedDataset, maxRows: number): Promise<CorpusIndex> {
  const { table, kept } = await searchTable(db, dataset, maxRows)
  const [r] = await db.all<{ first: string; last: string }>(`SELECT min(published_at) AS first, max(published_at) AS last FROM ${table}`)
  if (!r?.first) throw new Error(`${dataset.contract.file} has no rows`)
  return { table, kept, first: new Date(r.first), last: new Date(r.last) }
}
