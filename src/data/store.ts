import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../core'
import { DATASETS, EVIDENCE, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS, SPEND } from './contracts'
import { isSample, loadDataset, readManifest, type LoadedDataset } from './import/datasets'
import type { DuckDb } from './duckdb'
import { indexMarket, type MarketSnapshot } from './market-snapshot'

/** What an evidence index holds open (its file): the store closes it once a newer corpus replaces it. */
export interface ClosableIndex {
  close(): void
}

/**
 * How the domains index their datasets (the runtime passes the signals and the evidence corpus
 * builders): the store decides when, and keeps the result with the versions it was built from.
 */
export interface Indexers<S, E extends ClosableIndex> {
  signals(db: DuckDb, creators: LoadedDataset, topics: LoadedDataset, brands: LoadedDataset): Promise<S>
  /** `datasets`: every dataset of the same snapshot (the corpus's index knows the names of the weekly signals beside it). */
  evidence(db: DuckDb, corpus: LoadedDataset, datasets: Record<string, LoadedDataset>): Promise<E>
}

/** One consistent set of dataset versions. A request reads it once, so its answer never mixes versions. */
export interface DataSnapshot<S, E extends ClosableIndex> {
  datasets: Record<string, LoadedDataset>
  market: MarketSnapshot
  signals: S
  /** The evidence corpus and its search index. */
  evidence: { dataset: LoadedDataset; index: E }
  loadedAt: string
}

/** How long a replaced corpus's index is kept open for requests still reading it (longer than any payment window). */
const RETIRED_INDEX_GRACE_MS = 5 * 60_000

const failed = (e: unknown): IndexState => `failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`

const changedAny = (names: readonly string[], changed: readonly string[]) => names.some((n) => changed.includes(n))

/** The indexes a snapshot is built with; each is reported on /ready while the first snapshot is built. */
export type IndexName = 'market' | 'signals' | 'evidence'
/** `building`, `ok`, or why the index could not be built. */
export type IndexState = 'building' | 'ok' | `failed: ${string}`

export interface StoreOptions {
  logger?: Logger
  /** Awaited before the first snapshot is indexed (tests hold the build there to observe the service while it builds). */
  beforeIndexing?: () => Promise<void>
}

/**
 * Holds the current DataSnapshot and swaps it when manifest.json changes (`data import`/`rollback`
 * rename a new manifest into place). A new version is fully loaded and indexed before the swap;
 * requests already running keep the snapshot they started with. Old views are left in DuckDB's
 * catalog (a view is a few bytes) because a request in flight may still be reading one.
 *
 * `start` returns once the datasets are loaded (a bad folder fails there) and builds the first
 * snapshot's indexes in the background (~300 ms: the evidence search table is most of it), so the
 * service can listen meanwhile; `pending()` is what a request must wait for before reading `current()`.
 */
export class DatasetStore<S, E extends ClosableIndex> {
  private reloading: Promise<unknown>
  private timer: ReturnType<typeof setInterval> | undefined
  private manifestSignature: string
  private lastError: string | undefined
  private snapshot: DataSnapshot<S, E> | undefined
  /** The first snapshot's build; settled (and then never awaited again) once a snapshot exists. */
  readonly loaded: Promise<void>
  private readonly indexes: Record<IndexName, IndexState> = { market: 'building', signals: 'building', evidence: 'building' }

  private constructor(
    private readonly db: DuckDb,
    readonly dir: string,
    private readonly indexers: Indexers<S, E>,
    private readonly first: Loaded,
    private readonly options: StoreOptions,
  ) {
    this.manifestSignature = this.signature()
    this.loaded = (async () => {
      await options.beforeIndexing?.()
      this.snapshot = await this.index(first, undefined, this.progress)
    })()
    // Reloads queue behind the first build; a failure is reported by /ready (every index not built says
    // why) and by whoever awaits `loaded`.
    this.reloading = this.loaded.catch((e: unknown) => {
      for (const name of Object.keys(this.indexes) as IndexName[]) if (this.indexes[name] === 'building') this.progress(name, failed(e))
    })
  }

  private readonly progress = (name: IndexName, state: IndexState) => {
    this.indexes[name] = state
  }

  private get logger() {
    return this.options.logger
  }

  /** Loads the datasets and starts indexing them; see `pending()`. */
  static async start<S, E extends ClosableIndex>(
    db: DuckDb,
    dir: string,
    indexers: Indexers<S, E>,
    options: StoreOptions = {},
  ): Promise<DatasetStore<S, E>> {
    return new DatasetStore(db, dir, indexers, await DatasetStore.load(db, dir, undefined), options)
  }

  /** Loads and indexes the datasets: `current()` can be read at once. */
  static async open<S, E extends ClosableIndex>(
    db: DuckDb,
    dir: string,
    indexers: Indexers<S, E>,
    logger?: Logger,
  ): Promise<DatasetStore<S, E>> {
    const store = await DatasetStore.start(db, dir, indexers, logger ? { logger } : {})
    await store.loaded
    return store
  }

  /** Null once a snapshot is there (no request ever waits again); until then, the first build (it rejects if that build failed). */
  pending(): Promise<void> | null {
    return this.snapshot ? null : this.loaded
  }

  /** The current snapshot; only once `pending()` is null. */
  current(): DataSnapshot<S, E> {
    if (!this.snapshot) throw new Error('the datasets are still being indexed: wait for DatasetStore.pending() first')
    return this.snapshot
  }

  /** Reloads when the manifest names other versions; serialised, so two triggers never race. Returns the datasets that changed. */
  reload(): Promise<string[]> {
    const reloaded = this.reloading.then(async () => {
      const signature = this.signature()
      try {
        const previous = this.snapshot
        // Without a snapshot (the first build failed), this one is built as the first: /ready follows it.
        const next = await this.index(await DatasetStore.load(this.db, this.dir, previous), previous, previous ? undefined : this.progress)
        const changed = DATASETS.map((c) => c.name).filter((n) => next.datasets[n]!.entry.version !== previous?.datasets[n]?.entry.version)
        this.manifestSignature = signature
        this.lastError = undefined
        if (changed.length > 0) {
          this.snapshot = next
          if (previous && next.evidence !== previous.evidence) this.retire(previous.evidence.index)
          this.logger?.info('datasets reloaded', { versions: Object.fromEntries(changed.map((n) => [n, next.datasets[n]!.entry.version])) })
        }
        return changed
      } catch (error) {
        // Keep serving the versions we have; /ready reports the failure until a good manifest arrives.
        this.manifestSignature = signature
        this.lastError = (error as Error).message
        this.logger?.error('dataset reload failed; still serving the previous versions', { error: this.lastError })
        return []
      }
    })
    this.reloading = reloaded
    return reloaded
  }

  /** Polls manifest.json's identity (a cheap stat) and reloads when it changes. */
  watch(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.signature() !== this.manifestSignature) void this.reload()
    }, intervalMs)
    this.timer.unref()
  }

  status() {
    const datasets = this.snapshot?.datasets ?? this.first.datasets
    return {
      dir: this.dir,
      loaded_at: this.snapshot?.loadedAt ?? null,
      versions: Object.fromEntries(Object.entries(datasets).map(([n, d]) => [n, d.entry.version])),
      periods: Object.fromEntries(Object.entries(datasets).map(([n, d]) => [n, d.sourcePeriod])),
      ...(this.lastError ? { last_reload_error: this.lastError } : {}),
    }
  }

  /** Each index of the first snapshot: building, ok or failed (then the service is not ready). */
  indexStates(): Record<IndexName, IndexState> {
    return { ...this.indexes }
  }

  /** Stops watching and closes what the snapshots hold open (once no request reads them). */
  close(): void {
    clearInterval(this.timer)
    for (const [timer, index] of this.retiring) [clearTimeout(timer), index.close()]
    this.retiring.clear()
    this.snapshot?.evidence.index.close()
  }

  private readonly retiring = new Map<ReturnType<typeof setTimeout>, E>()

  /** Closes a replaced corpus's index once no request can still be reading it. */
  private retire(index: E): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer)
      try {
        index.close()
      } catch (error) {
        this.logger?.warn("could not close a replaced corpus's index", { error: String(error) })
      }
    }, RETIRED_INDEX_GRACE_MS)
    timer.unref()
    this.retiring.set(timer, index)
  }

  private signature(): string {
    try {
      const stats = statSync(join(this.dir, 'manifest.json'))
      return `${stats.ino}:${stats.size}:${stats.mtimeMs}`
    } catch {
      return 'missing'
    }
  }

  /** Loads every dataset of the manifest, reusing what `previous` already has at the same version. */
  private static async load(db: DuckDb, dir: string, previous: { datasets: Record<string, LoadedDataset> } | undefined): Promise<Loaded> {
    const manifest = readManifest(dir)
    const changed: string[] = []
    const loaded = await Promise.all(
      DATASETS.map(async (contract) => {
        const old = previous?.datasets[contract.name]
        const entry = manifest.datasets[contract.name]
        if (
          old &&
          entry &&
          old.entry.version === entry.version &&
          old.entry.file === entry.file &&
          old.sample === isSample(manifest, entry)
        )
          return old
        changed.push(contract.name)
        return loadDataset(db, dir, manifest, contract)
      }),
    )
    return { datasets: Object.fromEntries(loaded.map((d) => [d.contract.name, d])), changed }
  }

  /**
   * Builds the indexes of what changed, reusing `previous`'s for the rest. The indexes are built
   * concurrently: the DuckDB pool has a connection per core.
   */
  private async index(
    { datasets, changed }: Loaded,
    previous: DataSnapshot<S, E> | undefined,
    progress?: (name: IndexName, state: IndexState) => void,
  ): Promise<DataSnapshot<S, E>> {
    const { db, indexers } = this
    const datasetNamed = (name: string) => datasets[name]!
    const signalNames = [SIGNAL_CREATORS.name, SIGNAL_TOPICS.name, SIGNAL_BRANDS.name]
    const track = <T>(name: IndexName, build: Promise<T>) =>
      progress
        ? build.then(
            (v) => (progress(name, 'ok'), v),
            (e: unknown) => (progress(name, failed(e)), Promise.reject(e)),
          )
        : build
    const [evidence, market, signals] = await Promise.all([
      previous && !changed.includes(EVIDENCE.name)
        ? previous.evidence
        : track(
            'evidence',
            indexers.evidence(db, datasetNamed(EVIDENCE.name), datasets).then((index) => ({ dataset: datasetNamed(EVIDENCE.name), index })),
          ),
      previous && !changedAny([FLIGHTS.name, SPEND.name], changed)
        ? previous.market
        : track('market', indexMarket(db, datasetNamed(FLIGHTS.name), datasetNamed(SPEND.name))),
      previous && !changedAny(signalNames, changed)
        ? previous.signals
        : track(
            'signals',
            indexers.signals(db, datasetNamed(SIGNAL_CREATORS.name), datasetNamed(SIGNAL_TOPICS.name), datasetNamed(SIGNAL_BRANDS.name)),
          ),
    ])
    return { datasets, market, signals, evidence, loadedAt: new Date().toISOString() }
  }
}

/** Datasets loaded (views created, periods read), not yet indexed; `changed` names those not reused. */
interface Loaded {
  datasets: Record<string, LoadedDataset>
  changed: string[]
}
