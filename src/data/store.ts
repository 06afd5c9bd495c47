import { statSync } from 'node:fs'
import { join } from 'node:path'
import { indexCorpus, type CorpusIndex } from '../intelligence/sources'
import { indexSignals, type SignalsSnapshot } from '../signals/snapshot'
import type { Logger } from '../http/logger'
import { DATASETS, EVIDENCE, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS, SPEND } from './contracts'
import { isSample, loadDataset, readManifest, type LoadedDataset } from './datasets'
import type { DuckDb } from './duckdb'
import { indexMarket, type MarketSnapshot } from './market-snapshot'

/** One consistent set of dataset versions. A request reads it once, so its answer never mixes versions. */
export interface DataSnapshot {
  datasets: Record<string, LoadedDataset>
  market: MarketSnapshot
  signals: SignalsSnapshot
  /** The sample evidence corpus and its in-memory search table. */
  evidence: { dataset: LoadedDataset; index: CorpusIndex }
  loadedAt: string
}

/** How long a replaced corpus search table is kept for requests still reading it (longer than any payment window). */
const RETIRED_TABLE_GRACE_MS = 5 * 60_000

const changedAny = (names: readonly string[], changed: readonly string[]) => names.some((n) => changed.includes(n))

/**
 * Holds the current DataSnapshot and swaps it when manifest.json changes (`data import`/`rollback`
 * rename a new manifest into place). A new version is fully loaded and indexed before the swap;
 * requests already running keep the snapshot they started with. Old views are left in DuckDB's
 * catalog (a view is a few bytes) because a request in flight may still be reading one.
 */
export class DatasetStore {
  private reloading: Promise<string[]> = Promise.resolve([])
  private timer: ReturnType<typeof setInterval> | undefined
  private manifestSignature: string
  private lastError: string | undefined

  private constructor(private readonly db: DuckDb, readonly dir: string, private snapshot: DataSnapshot, private readonly logger?: Logger) {
    this.manifestSignature = this.signature()
  }

  static async open(db: DuckDb, dir: string, logger?: Logger): Promise<DatasetStore> {
    return new DatasetStore(db, dir, await DatasetStore.build(db, dir, undefined), logger)
  }

  current(): DataSnapshot {
    return this.snapshot
  }

  /** Reloads when the manifest names other versions; serialised, so two triggers never race. Returns the datasets that changed. */
  reload(): Promise<string[]> {
    this.reloading = this.reloading.then(async () => {
      const signature = this.signature()
      try {
        const previous = this.snapshot
        const next = await DatasetStore.build(this.db, this.dir, previous)
        const changed = DATASETS.map((c) => c.name).filter((n) => next.datasets[n]!.entry.version !== previous.datasets[n]?.entry.version)
        this.manifestSignature = signature
        this.lastError = undefined
        if (changed.length > 0) {
          this.snapshot = next
          if (next.evidence !== previous.evidence) this.retire(previous.evidence.index.table)
          this.logger?.info('datasets reloaded', { versions: Object.fromEntries(changed.map((n) => [n, next.datasets[n]!.entry.version])) })
        }
        return changed
      } catch (e) {
        // Keep serving the versions we have; /ready reports the failure until a good manifest arrives.
        this.manifestSignature = signature
        this.lastError = (e as Error).message
        this.logger?.error('dataset reload failed; still serving the previous versions', { error: this.lastError })
        return []
      }
    })
    return this.reloading
  }

  /** Polls manifest.json's identity (a cheap stat) and reloads when it changes. */
  watch(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.signature() !== this.manifestSignature) void this.reload()
    }, intervalMs)
    this.timer.unref()
  }

  status() {
    return {
      dir: this.dir,
      loaded_at: this.snapshot.loadedAt,
      versions: Object.fromEntries(Object.entries(this.snapshot.datasets).map(([n, d]) => [n, d.entry.version])),
      ...(this.lastError ? { last_reload_error: this.lastError } : {}),
    }
  }

  close(): void {
    clearInterval(this.timer)
    for (const t of this.retiring) clearTimeout(t)
  }

  private readonly retiring = new Set<ReturnType<typeof setTimeout>>()

  /** Drops a replaced search table once no request can still be reading it. Views cost nothing and stay. */
  private retire(table: string): void {
    const t = setTimeout(() => {
      this.retiring.delete(t)
      this.db.exec(`DROP TABLE IF EXISTS ${table}`).catch((e) => this.logger?.warn('could not drop a replaced search table', { table, error: String(e) }))
    }, RETIRED_TABLE_GRACE_MS)
    t.unref()
    this.retiring.add(t)
  }

  private signature(): string {
    try {
      const s = statSync(join(this.dir, 'manifest.json'))
      return `${s.ino}:${s.size}:${s.mtimeMs}`
    } catch {
      return 'missing'
    }
  }

  /**
   * Loads every dataset of the manifest, reusing what `previous` already has at the same version. The
   * loads, then the indexes, run concurrently: the DuckDB pool has a connection per core.
   */
  private static async build(db: DuckDb, dir: string, previous: DataSnapshot | undefined): Promise<DataSnapshot> {
    const manifest = readManifest(dir)
    const changed: string[] = []
    const loaded = await Promise.all(
      DATASETS.map(async (contract) => {
        const old = previous?.datasets[contract.name]
        const entry = manifest.datasets[contract.name]
        if (old && entry && old.entry.version === entry.version && old.entry.file === entry.file && old.sample === isSample(manifest, entry)) return old
        changed.push(contract.name)
        return loadDataset(db, dir, manifest, contract)
      }),
    )
    const datasets: Record<string, LoadedDataset> = Object.fromEntries(loaded.map((d) => [d.contract.name, d]))
    const d = (name: string) => datasets[name]!
    const signalNames = [SIGNAL_CREATORS.name, SIGNAL_TOPICS.name, SIGNAL_BRANDS.name]
    const [evidence, market, signals] = await Promise.all([
      previous && !changed.includes(EVIDENCE.name) ? previous.evidence : indexCorpus(db, d(EVIDENCE.name)).then((index) => ({ dataset: d(EVIDENCE.name), index })),
      previous && !changedAny([FLIGHTS.name, SPEND.name], changed) ? previous.market : indexMarket(db, d(FLIGHTS.name), d(SPEND.name)),
      previous && !changedAny(signalNames, changed) ? previous.signals : indexSignals(db, d(SIGNAL_CREATORS.name), d(SIGNAL_TOPICS.name), d(SIGNAL_BRANDS.name)),
    ])
    return { datasets, market, signals, evidence, loadedAt: new Date().toISOString() }
  }
}
