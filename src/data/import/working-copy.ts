/**
 * From source, the service and the `data` commands work on a copy of the shipped sample (`var/datasets`,
 * beside the ledger's default), never on the `datasets/` folder git tracks: an import or a rollback then
 * leaves the checkout clean. The copy is made on first use and remembers what it was copied from, so a
 * newer shipped sample (a `git pull`) replaces a copy nobody changed; a copy the data team changed is
 * kept, with a warning. The executable has its own read-only copy (embedded/binary.ts).
 */
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { LockedError, takeLock } from './pid-lock'

const RECORD = '.copied-from.json'

interface CopyRecord {
  /** sha256 of the shipped manifest.json the copy was made from, and of the copy's own manifest then. */
  shipped: string
  copy: string
}

const manifestHash = (dir: string) =>
  createHash('sha256')
    .update(readFileSync(join(dir, 'manifest.json')))
    .digest('hex')

/** `target`, made a copy of `shipped` when it has none or an unchanged copy of an older sample; `warn` says when a changed copy is kept. */
export function workingCopy(shipped: string, target: string, warn: (message: string) => void = console.warn): string {
  const record = readRecord(target)
  if (existsSync(join(target, 'manifest.json'))) {
    // A folder this did not copy (made by hand, its record removed) is the team's: never replaced.
    if (!record || record.shipped === manifestHash(shipped)) return target
    if (manifestHash(target) !== record.copy) {
      warn(
        `${target} holds data changed since it was copied from the shipped sample, which has changed too (${shipped}); it is kept. Remove it to start again from the new sample.`,
      )
      return target
    }
    // Not while a data command changes it (refresh.ts takes the same lock), and only if, once locked, it is
    // still the copy nobody changed.
    let release: () => void
    try {
      release = takeLock(join(target, '.manifest.lock'), `a data command is changing ${target}`)
    } catch (error) {
      if (!(error instanceof LockedError)) throw error
      return target
    }
    let replaced = false
    try {
      if (manifestHash(target) === record.copy) {
        replace(shipped, target)
        replaced = true
      }
    } finally {
      // A replacement took the lock file away with the old folder (removed with it): releasing it now
      // would remove a lock another process took in the new one.
      if (!replaced) release()
    }
    return target
  }
  replace(shipped, target)
  return target
}

/** A fresh copy of `shipped` put in `target`'s place. */
function replace(shipped: string, target: string): void {
  // Copied beside it, then renamed into place: processes starting at once each make their own and one wins.
  mkdirSync(dirname(target), { recursive: true })
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${crypto.randomUUID()}`)
  cpSync(shipped, temp, { recursive: true, filter: (path) => !/\.(lock|tmp|staging|partial)$/.test(path) })
  writeFileSync(join(temp, RECORD), JSON.stringify({ shipped: manifestHash(shipped), copy: manifestHash(temp) } satisfies CopyRecord))
  const old = `${temp}.old`
  try {
    renameSync(target, old)
  } catch (error) {
    // Nothing there yet, or another process moved it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    renameSync(temp, target)
  } catch (error) {
    // Another process put its copy in place first: it is the same sample.
    if (!existsSync(join(target, 'manifest.json'))) throw error
    rmSync(temp, { recursive: true, force: true })
  }
  rmSync(old, { recursive: true, force: true })
}

function readRecord(target: string): CopyRecord | null {
  try {
    return JSON.parse(readFileSync(join(target, RECORD), 'utf8')) as CopyRecord
  } catch {
    return null
  }
}
