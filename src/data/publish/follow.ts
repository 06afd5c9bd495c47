import { createHash, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Logger } from '../../core'
import { LockedError, takeLock } from '../import/pid-lock'
import { LASTING, nextCheckDelayMs, refuseReplay, sequenceOf, SourceUnavailableError, validatePublished } from './follow-policy'
import { DATASETS } from '../contracts'
import { DatasetUnavailableError, readManifest, type FollowedPublication, type Manifest, type ManifestEntry } from '../import/datasets'
import type { DuckDb } from '../duckdb'
import { boundedText, download } from './publication-download'
import { PUBLICATION_FILE, PublicationRefused, verifyPublication, type Publication, type RefusalReason } from './publication'
import type { PublicationSource, Validators } from './publication-places'
import { fileSha256, writeManifest } from '../import/refresh'
import { FolderFiles } from './follow-files'

/** How long the publication document may take to arrive. */
const PUBLICATION_TIMEOUT_MS = 15_000
/** How long one dataset file may take to arrive (a 100x corpus is gigabytes). */
const FILE_TIMEOUT_MS = 30 * 60_000
/** A publication document is a few kilobytes; anything near this is not one. */
const MAX_PUBLICATION_BYTES = 1 << 20
/** How long files of replaced publications stay for requests still reading them (as a replaced search table, store.ts). */
const PRUNE_GRACE_MS = 5 * 60_000
export type CheckOutcome = 'unchanged' | 'installed' | 'refused' | 'unreachable'

export interface FollowOptions {
  source: PublicationSource
  keys: ReadonlyMap<string, KeyObject>
  /** The instance's own copy: publication files and the manifest.json the dataset store reads. */
  dir: string
  pollMs: number
  db: DuckDb
  logger?: Logger
  /** Called once a new publication's manifest.json is in place (the store reloads from it); resolves with why it could not load it, if it could not. */
  installed?: () => Promise<string | undefined>
  random?: () => number
  /** How long a replaced publication's files stay for requests still reading them (default PRUNE_GRACE_MS). */
  pruneGraceMs?: number
}

interface Refusal {
  reason: RefusalReason
  message: string
  at: string
  /** The refused publication's sequence, when it was read that far. */
  sequence?: number
}

/**
 * Keeps an instance's datasets folder a verified copy of one publication (DATA_SOURCE_URL): polls it
 * with conditional requests, and installs a newer one only once its signature, every file's size and
 * sha256, and every file's contract check out. Anything else is refused: the current copy keeps being
 * served, /ready and /metrics say why, and the next check backs off. Checks never overlap.
 */
export class DataFollower {
  /** The publication served, as installed (manifest.json's `publication`). */
  private serving: FollowedPublication | undefined
  /** No publication below this sequence is installed: the highest ever installed here. */
  private floor = 0
  /** The last publication answer processed to the end: its validators, and the lasting refusal it got, if any. */
  private seen: { validators: Validators; refused?: PublicationRefused } | undefined
  private failures = 0
  private refusal: Refusal | undefined
  private lastCheckAt: string | undefined
  private lastOkAt: string | undefined
  private nextCheckAt: number | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  /** Aborted by close(): a download in progress stops instead of holding the shutdown. */
  private readonly stopping = new AbortController()
  private checking: Promise<CheckOutcome> = Promise.resolve('unchanged')
  readonly counts = {
    checks: new Map<CheckOutcome, number>(),
    refusals: new Map<RefusalReason, number>(),
    downloadedBytes: 0,
  }

  /** Which version files of the folder something still refers to (follow-files.ts). */
  private readonly files: FolderFiles

  private constructor(private readonly options: FollowOptions) {
    this.files = new FolderFiles(options.dir, options.pruneGraceMs ?? PRUNE_GRACE_MS)
  }

  /**
   * Reads what the folder holds (re-hashing each file: a copy altered on disk is not served), then
   * checks the source once. Throws when, after that, there is nothing verified to serve.
   */
  static async open(options: FollowOptions): Promise<DataFollower> {
    const follower = new DataFollower(options)
    mkdirSync(options.dir, { recursive: true })
    // One follower per folder: two would download into and prune each other's files.
    try {
      follower.unlock = takeLock(join(options.dir, '.follow.lock'), `another instance follows a publication into ${options.dir}`)
    } catch (error) {
      if (error instanceof LockedError) throw new DatasetUnavailableError(`${error.message}; give each instance its own DATASETS_DIR`)
      throw error
    }
    try {
      // Downloads a stopped process left half-written.
      for (const file of readdirSync(options.dir)) if (file.startsWith('.incoming-')) rmSync(join(options.dir, file), { force: true })
      await follower.readLocalCopy()
      const outcome = await follower.check()
      if (!follower.serving) {
        const why = follower.refusal ? `${follower.refusal.reason}: ${follower.refusal.message}` : outcome
        throw new SourceUnavailableError(`no verified publication to serve from ${options.source.shown} (${why})`, follower.refusal?.reason)
      }
      return follower
    } catch (error) {
      follower.unlock()
      throw error
    }
  }

  private unlock: () => void = () => {}

  /** Polls every pollMs, give or take a fifth (instances started together do not call at once), backing off after failures. */
  start(): void {
    if (this.stopping.signal.aborted) return
    const delay = nextCheckDelayMs(this.options.pollMs, this.failures, (this.options.random ?? Math.random)())
    this.nextCheckAt = Date.now() + delay
    this.timer = setTimeout(() => void this.check().finally(() => this.start()), delay)
    this.timer.unref()
  }

  /** Stops polling and any download; resolves once the check in progress (if any) has ended. */
  close(): Promise<void> {
    this.stopping.abort()
    clearTimeout(this.timer)
    return this.checking.then(
      () => this.unlock(),
      () => this.unlock(),
    )
  }

  /** One check of the source; serialised behind any check running. */
  check(): Promise<CheckOutcome> {
    this.checking = this.checking.then(() => this.checkOnce())
    return this.checking
  }

  status() {
    const { serving } = this
    return {
      source: this.options.source.shown,
      trusted_keys: [...this.options.keys.keys()],
      state: this.refusal ? (this.refusal.reason === 'unreachable' ? 'unreachable' : 'refusing') : 'following',
      serving: serving
        ? {
            sequence: serving.sequence,
            published_at: serving.published_at,
            key_id: serving.key_id,
            installed_at: serving.installed_at,
            source: serving.source,
          }
        : null,
      last_check_at: this.lastCheckAt ?? null,
      last_ok_at: this.lastOkAt ?? null,
      consecutive_failures: this.failures,
      next_check_in_seconds: this.nextCheckAt === undefined ? null : Math.max(0, Math.round((this.nextCheckAt - Date.now()) / 1000)),
      ...(this.refusal ? { refused: this.refusal } : {}),
      ...(this.missing().length > 0 ? { missing_files: this.missing() } : {}),
    }
  }

  /** What /metrics shows. */
  metrics() {
    return {
      sequence: this.serving?.sequence ?? 0,
      publishedAt: this.serving ? Date.parse(this.serving.published_at) / 1000 : 0,
      lastOkAt: this.lastOkAt ? Date.parse(this.lastOkAt) / 1000 : 0,
      refusing: this.refusal ? 1 : 0,
      ...this.counts,
    }
  }

  private async checkOnce(): Promise<CheckOutcome> {
    this.lastCheckAt = new Date().toISOString()
    let outcome: CheckOutcome
    try {
      outcome = await this.fetchAndInstall()
      this.refusal = undefined
      this.failures = 0
      this.lastOkAt = this.lastCheckAt
    } catch (error) {
      const refused =
        error instanceof PublicationRefused
          ? error
          : new PublicationRefused('unreachable', (error as Error).message.split('\n')[0] ?? 'failed')
      outcome = refused.reason === 'unreachable' ? 'unreachable' : 'refused'
      this.failures++
      this.refusal = { reason: refused.reason, message: refused.message, at: this.lastCheckAt, ...sequenceOf(error) }
      this.counts.refusals.set(refused.reason, (this.counts.refusals.get(refused.reason) ?? 0) + 1)
      this.options.logger?.warn('data source: publication not installed; still serving the current copy', {
        source: this.options.source.shown,
        reason: refused.reason,
        error: refused.message,
        serving: this.serving?.sequence ?? null,
      })
    }
    this.counts.checks.set(outcome, (this.counts.checks.get(outcome) ?? 0) + 1)
    return outcome
  }

  private async fetchAndInstall(): Promise<'unchanged' | 'installed'> {
    const { source, keys } = this.options
    // A served file gone from the folder (deleted by hand, a disk fault): the document is read again and the file fetched again.
    if (this.missing().length > 0) this.seen = undefined
    let answer: Response
    try {
      answer = await source.get(PUBLICATION_FILE, this.seen?.validators, this.deadline(PUBLICATION_TIMEOUT_MS))
    } catch (error) {
      throw new PublicationRefused('unreachable', `${source.shown}: ${(error as Error).message}`)
    }
    if (answer.status === 304) {
      await answer.body?.cancel()
      // The document answered last time: refused again for what it was refused for, without a download.
      if (this.seen?.refused) throw this.seen.refused
      return 'unchanged'
    }
    if (!answer.ok) {
      await answer.body?.cancel()
      throw new PublicationRefused('unreachable', `${source.shown} answered ${answer.status}`)
    }
    const validators: Validators = {
      ...(answer.headers.get('etag') ? { etag: answer.headers.get('etag')! } : {}),
      ...(answer.headers.get('last-modified') ? { lastModified: answer.headers.get('last-modified')! } : {}),
    }
    const text = await boundedText(answer, MAX_PUBLICATION_BYTES)
    try {
      const { publication, digest } = verifyPublication(text, keys)
      refuseReplay(publication, digest, this.floor, this.ownCopy() ? this.serving : undefined)
      if (!(this.ownCopy() && publication.sequence === this.serving!.sequence && this.missing().length === 0))
        await this.install(publication, digest)
      this.seen = { validators }
      return this.serving?.sequence === publication.sequence && this.installedNow ? 'installed' : 'unchanged'
    } catch (error) {
      // A refusal for what the document or its files are (not a failed transfer) is remembered with the
      // answer's validators: the same document is refused again on a 304, not downloaded again.
      if (error instanceof PublicationRefused && LASTING.has(error.reason)) this.seen = { validators, refused: error }
      throw error
    } finally {
      this.installedNow = false
    }
  }

  /** Set by install() for fetchAndInstall's outcome. */
  private installedNow = false

  private async install(publication: Publication, digest: string): Promise<void> {
    const { dir } = this.options
    const fetched: string[] = []
    const entries: Record<string, ManifestEntry> = {}
    try {
      for (const contract of DATASETS) {
        const published = publication.datasets[contract.name]
        if (!published) throw new PublicationRefused('malformed', `publication ${publication.sequence} has no ${contract.name} dataset`)
        if (published.schema_version !== contract.schemaVersion)
          throw new PublicationRefused(
            'contract',
            `${contract.name} has schema version ${published.schema_version} in publication ${publication.sequence}; this release reads ${contract.schemaVersion}`,
          )
        const local = basename(published.file)
        this.files.inFlight.add(local)
        if (!this.holds(local)) {
          const incoming = join(dir, `.incoming-${local}`)
          fetched.push(incoming)
          this.counts.downloadedBytes += await download(this.options.source, published, incoming, this.deadline(FILE_TIMEOUT_MS))
          await validatePublished(this.options.db, contract, published, incoming, publication.published_at)
        }
        // The index the publisher built (signed with the rest: its checksum is the check); the service opens it by name.
        const index = published.index
        if (index) this.files.inFlight.add(basename(index.file))
        if (index && !this.holds(basename(index.file))) {
          const incoming = join(dir, `.incoming-${basename(index.file)}`)
          fetched.push(incoming)
          this.counts.downloadedBytes += await download(this.options.source, index, incoming, this.deadline(FILE_TIMEOUT_MS))
        }
        entries[contract.name] = {
          file: local,
          schema_version: published.schema_version,
          rows: published.rows,
          period: published.period,
          sha256: published.sha256,
          version: published.version,
          sample: published.sample,
          ...(published.notice ? { notice: published.notice } : {}),
          ...(index ? { index: { file: basename(index.file), sha256: index.sha256 } } : {}),
        }
      }
    } catch (error) {
      for (const file of fetched) rmSync(file, { force: true })
      this.files.inFlight.clear()
      throw Object.assign(error as Error, { sequence: publication.sequence })
    }
    for (const file of fetched) {
      const local = basename(file).slice('.incoming-'.length)
      renameSync(file, join(dir, local))
      this.verified.add(local)
    }
    const record: FollowedPublication = {
      source: this.options.source.shown,
      sequence: publication.sequence,
      published_at: publication.published_at,
      key_id: publication.key_id,
      payload_sha256: digest,
      installed_at: new Date().toISOString(),
    }
    const previous = existsSync(join(dir, 'manifest.json')) ? readManifest(dir) : undefined
    const manifest: Manifest = {
      sample: Object.values(entries).every((e) => e.sample),
      ...(publication.note ? { note: publication.note } : {}),
      datasets: entries,
      publication: record,
    }
    writeManifest(dir, manifest)
    this.files.inFlight.clear()
    // What the replaced publication named stays until requests still reading it are done.
    this.files.hold(previous)
    this.floor = Math.max(this.floor, record.sequence)
    // Reported as served once the store has loaded it: /ready never names a publication answers do not come from yet.
    const failed = await this.options.installed?.()
    if (failed)
      throw Object.assign(
        new PublicationRefused('contract', `publication ${record.sequence} was verified but could not be loaded: ${failed}`),
        {
          sequence: record.sequence,
        },
      )
    this.serving = record
    this.installedNow = true
    this.options.logger?.info('data source: publication installed', {
      sequence: record.sequence,
      versions: Object.fromEntries(Object.entries(entries).map(([n, e]) => [n, e.version])),
    })
    // Requests in flight may still read the files being replaced: they go after the grace a replaced search table gets.
    const prune = setTimeout(() => this.files.prune(this.verified), (this.options.pruneGraceMs ?? PRUNE_GRACE_MS) + 1)
    prune.unref()
  }

  private deadline(ms: number): AbortSignal {
    return AbortSignal.any([AbortSignal.timeout(ms), this.stopping.signal])
  }

  /** Whether the copy served came from this source (a folder that followed another URL is replaced by this one's publication). */
  private ownCopy(): boolean {
    return this.serving?.source === this.options.source.shown
  }

  /** Files whose bytes were hashed against a verified manifest: names are content-addressed, so a name stays verified. */
  private readonly verified = new Set<string>()

  /** A verified file still in the folder: one that went missing is downloaded again. */
  private holds(file: string): boolean {
    return this.verified.has(file) && existsSync(join(this.options.dir, file))
  }

  /** The folder's copy from an earlier run: served only if it was installed from a publication and every file still hashes to it. */
  private async readLocalCopy(): Promise<void> {
    const { dir } = this.options
    if (!existsSync(join(dir, 'manifest.json'))) return
    const manifest = readManifest(dir)
    if (!manifest.publication)
      throw new DatasetUnavailableError(
        `${dir} holds datasets that were not installed from a publication; with DATA_SOURCE_URL, DATASETS_DIR must be an empty folder (or one this instance filled)`,
      )
    // The floor is the sequence this source reached; another source's numbers say nothing of this one's.
    if (manifest.publication.source === this.options.source.shown) this.floor = manifest.publication.sequence
    const files = Object.values(manifest.datasets).flatMap((e) => [{ file: e.file, sha256: e.sha256 }, ...(e.index ? [e.index] : [])])
    for (const { file: name, sha256 } of files) {
      const file = join(dir, name)
      if (!existsSync(file) || statSync(file).size === 0 || (await fileSha256(file)) !== sha256) {
        this.options.logger?.warn('data source: the local copy was altered; downloading the publication again', { file: name })
        // Not served: the check that follows must install a publication again (the floor still holds).
        return
      }
    }
    for (const { file } of files) this.verified.add(file)
    this.serving = manifest.publication
  }

  /** Files the manifest installed now names that are not in the folder (/ready is not ready while one is missing). */
  missing(): string[] {
    return this.serving ? this.files.missing() : []
  }
}
