import { closeSync, existsSync, fsyncSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/**
 * Files the payments CLI writes (CSV exports, ledger backups) are written under a temporary name in the
 * destination's folder and renamed into place when complete: an interrupted run never leaves a
 * half-written file under the name a script or an accountant will pick up, and a previous file is
 * replaced only when asked (--force).
 */
export class OutputFileError extends Error {}

/**
 * Throws an OutputFileError saying why `dest` cannot be written (checked before any work is done).
 * `ledger`: the live ledger, which no --force may replace (nor its -wal and -shm files).
 */
export function checkDestination(dest: string, force: boolean, ledger?: string): void {
  const dir = dirname(dest)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new OutputFileError(`${dest}: the folder ${dir} does not exist.`)
  if (ledger && [ledger, `${ledger}-wal`, `${ledger}-shm`].some((f) => sameFile(f, dest))) {
    throw new OutputFileError(`${dest} is the payment ledger itself (or its WAL); write elsewhere.`)
  }
  if (existsSync(dest)) {
    if (statSync(dest).isDirectory()) throw new OutputFileError(`${dest} is a folder; give a file name.`)
    if (!force) throw new OutputFileError(`${dest} already exists; refusing to overwrite it (add --force to replace it).`)
  }
}

/** The same path, or the same file under another name (a link, a relative path). */
function sameFile(first: string, second: string): boolean {
  if (resolve(first) === resolve(second)) return true
  try {
    const [x, y] = [statSync(first), statSync(second)]
    return x.dev === y.dev && x.ino === y.ino
  } catch {
    return false
  }
}

/** A name beside `dest` (same file system, so the rename is atomic) that no other run uses. */
export function tempPathFor(dest: string): string {
  const tag = Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')
  return join(dirname(dest), `.${basename(dest)}.tmp-${process.pid}-${tag}`)
}

/** Flushes `tmp` to disk, renames it to `dest` and flushes the folder, so the new name survives a power cut. */
export function publish(tmp: string, dest: string): void {
  const fd = openSync(tmp, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, dest)
  try {
    const dir = openSync(dirname(dest), 'r')
    try {
      fsyncSync(dir)
    } finally {
      closeSync(dir)
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename itself is done.
  }
}

/** Removes a temporary file after a failed run; never throws (the original error is what matters). */
export function discard(tmp: string): void {
  try {
    unlinkSync(tmp)
  } catch {
    // already gone
  }
}
