import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { readManifest, type Manifest } from '../import/datasets'

/** A version file's name: a dataset's Parquet or its index, named by content. */
const VERSION_FILE = /^[a-z_]+-[0-9a-f]{12}\.(parquet|index-v\d+(-[0-9a-f]{12})?\.sqlite)$/

/**
 * Which version files of a follower's folder something still refers to: the manifest installed now (read
 * as it is when asked), a replaced publication during its grace (requests in flight may still read it),
 * a download in progress. A prune removes the rest, reading the references when it runs, never a list
 * taken when it was scheduled: two publications in quick succession, a rollback, a download under way,
 * none loses a file it serves or is about to serve.
 */
export class FolderFiles {
  /** Files a replaced publication named, and until when they stay. */
  private readonly held = new Map<string, number>()
  /** Local names of files being downloaded or installed now. */
  readonly inFlight = new Set<string>()

  constructor(
    private readonly dir: string,
    private readonly graceMs: number,
  ) {}

  /** Keeps what a replaced manifest named for the grace. */
  hold(previous: Manifest | undefined): void {
    const until = Date.now() + this.graceMs
    for (const file of filesOf(previous)) this.held.set(file, Math.max(this.held.get(file) ?? 0, until))
  }

  /** Removes what nothing refers to (and forgets it in `verified`). */
  prune(verified: Set<string>): void {
    const now = Date.now()
    for (const [file, until] of this.held) if (until <= now) this.held.delete(file)
    const named = new Set([...filesOf(this.current()), ...this.held.keys(), ...this.inFlight])
    for (const file of readdirSync(this.dir)) {
      const incoming = file.startsWith('.incoming-')
      if ((VERSION_FILE.test(file) && !named.has(file)) || (incoming && !this.inFlight.has(file.slice('.incoming-'.length)))) {
        rmSync(join(this.dir, file), { force: true })
        verified.delete(file)
      }
    }
  }

  /** Files the manifest installed now names that are not in the folder. */
  missing(): string[] {
    return filesOf(this.current()).filter((file) => !existsSync(join(this.dir, file)))
  }

  private current(): Manifest | undefined {
    return existsSync(join(this.dir, 'manifest.json')) ? readManifest(this.dir) : undefined
  }
}

/** Every file a manifest names: the datasets and their indexes. */
export function filesOf(manifest: Manifest | undefined): string[] {
  return Object.values(manifest?.datasets ?? {}).flatMap((e) => [e.file, ...(e.index ? [e.index.file] : [])])
}
