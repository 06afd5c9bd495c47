/**
 * Where the evidence comes from: live providers when any search provider is configured, otherwise the
 * embedded sample corpus. The two are never mixed, so a live answer never contains sample items.
 */
import type { ProviderSettings } from './providers/provider-settings'
import { dataQuality, type DuckDb, type LoadedDataset } from '../data'
import type { EvidenceItem, EvidenceProvider } from './evidence'
import { ChatCompletionsSummariser } from './providers/chat-completions'
import { CorpusProvider, CorpusSearch, CREATOR_READ_MAX, READ_MAX_ROWS } from './corpus/corpus'
import { vocabularyOf } from './corpus/corpus-vocabulary'
import type { EntityIndex } from './names/entities'
import type { CorpusIndexFile } from './corpus/corpus-index'
import { openCorpusIndex, type VocabularyOf } from './corpus/corpus-index-cache'
import type { IndexBuilt } from './corpus/corpus-index-build'
import type { Matcher } from './analysis/relevance'
import { KOL } from '../catalog'
import { nativeProvider, webProvider } from './providers/vendors'
import { ProviderHealth } from './providers/provider-health'

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
  /** Sample corpus only: reads what the first KOL answers read (the creators' posts of the window) ahead of the first request. */
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

/** The corpus as the native and web providers, from its index (indexCorpus). */
export function corpusSources(
  dataset: LoadedDataset,
  index: CorpusIndex,
  summariser: ChatCompletionsSummariser | null = null,
  /** The entity index in use: whether the corpus index knows its names as it does (corpus-vocabulary.ts). */
  entities?: () => EntityIndex,
): EvidenceSources {
  const asOf = new Date(Math.floor(index.last.getTime() / DAY_MS) * DAY_MS + DAY_MS)
  const coverageFrom = new Date(Math.floor(index.first.getTime() / DAY_MS) * DAY_MS)
  const search = new CorpusSearch(index.file, READ_MAX_ROWS, CREATOR_READ_MAX, () => entities && vocabularyOf(entities()).fingerprint)
  return {
    mode: 'sample',
    native: [new CorpusProvider(search, 'native', coverageFrom)],
    web: [new CorpusProvider(search, 'web', coverageFrom)],
    summariser,
    asOf: () => asOf,
    quality: () => {
      const q = dataQuality(dataset)
      return { ...q, notice: `${q.notice} ${CORPUS_NOTICE}` }
    },
    creatorPosts: (from, to, prefilter) => search.creatorPosts(from, to, prefilter),
    prepare: () => search.prepare(new Date(asOf.getTime() - KOL.lookbackDays * DAY_MS), asOf),
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
  /** The corpus's search index on disk (corpus/corpus-index.ts). */
  file: CorpusIndexFile
  /** How long building it took, when this load built it (none was there yet). */
  built?: IndexBuilt
  /** First and last publication time: sample windows end the day after the last. */
  first: Date
  last: Date
  /** Closes the index file (the store does, once no request can still read a replaced version). */
  close(): void
}

/** The corpus's search index, opened, or built first (knowing `names`) when this version has none yet (corpus/corpus-index-cache.ts). */
export async function indexCorpus(db: DuckDb, dataset: LoadedDataset, names: VocabularyOf): Promise<CorpusIndex> {
  const { index, built } = await openCorpusIndex(db, dataset, names)
  if (index.posts === 0) {
    index.close()
    throw new Error(`${dataset.contract.file} has no rows`)
  }
  return { file: index, ...(built ? { built } : {}), first: index.first, last: index.last, close: () => index.close() }
}
