import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { cacheDirs } from '../core'

/** A file embedded in the executable (a `/$bunfs/` path), with what the build measured of it. */
export interface EmbeddedFile {
  /** Name relative to the folder it is extracted into, e.g. `flights.parquet` or `libduckdb.so`. */
  name: string
  /** Where Bun serves the embedded copy from; only Bun's own file APIs can read it. */
  path: string
  size: number
}

/** A set of files extracted together into `<cache>/<kind>-<hash>/`; the hash covers every file's content. */
export interface EmbeddedBundle {
  kind: string
  hash: string
  files: EmbeddedFile[]
}

/**
 * A native library is loaded from here, so refuse a folder someone else could have planted files in:
 * it must be ours and not writable by group or others.
 */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const st = lstatSync(dir)
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`)
  const uid = process.getuid?.()
  if (uid !== undefined && st.uid !== uid) throw new Error(`${dir} belongs to another user (uid ${st.uid})`)
  if (st.mode & 0o022) throw new Error(`${dir} is writable by group or others`)
}

/**
 * Copies one embedded file to `target` unless a copy of the right size is there. Writes a private temp
 * file beside it and renames it into place, so two processes starting at once never see half a file.
 */
async function extractFile(file: EmbeddedFile, target: string): Promise<void> {
  if (existsSync(target) && statSync(target).size === file.size) return
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
  const temp = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`
  try {
    const written = await Bun.write(temp, Bun.file(file.path))
    if (written !== file.size) throw new Error(`wrote ${written} of ${file.size} bytes of ${file.name} (disk full?)`)
    renameSync(temp, target)
  } finally {
    rmSync(temp, { force: true })
  }
}

/**
 * Extracts a bundle once into `<cache>/<kind>-<hash>/` and returns that folder. Tries each cache root
 * in turn; fails with every root's reason when none can be used.
 */
export async function extractBundle(bundle: EmbeddedBundle, dirs: string[] = cacheDirs()): Promise<string> {
  const reasons: string[] = []
  for (const base of dirs) {
    const dir = join(base, `${bundle.kind}-${bundle.hash.slice(0, 16)}`)
    try {
      ensurePrivateDir(base)
      for (const file of bundle.files) await extractFile(file, join(dir, file.name))
      return dir
    } catch (error) {
      reasons.push(`${base}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  throw new Error(
    `cannot extract the embedded ${bundle.kind} to any cache folder (set XDG_CACHE_HOME to a writable one):\n  ${reasons.join('\n  ')}`,
  )
}
