import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'

/**
 * An exclusive lock file holding its owner (`<pid>@<host>`): taken over when that process is gone (a
 * crash leaves no lock behind for good); refused, naming the owner, while it runs. A lock of another
 * host (a folder on NFS) is not taken over. Returns the release.
 */
export function takeLock(file: string, what: string): () => void {
  const owner = `${process.pid}@${hostname()}`
  const take = () => {
    const fd = openSync(file, 'wx')
    writeFileSync(fd, owner)
    closeSync(fd)
  }
  try {
    take()
  } catch {
    let held = ''
    try {
      held = readFileSync(file, 'utf8').trim()
    } catch {}
    const [pid, host = hostname()] = held.split('@')
    let alive = host !== hostname()
    try {
      alive ||= Number(pid) > 0 && process.kill(Number(pid), 0)
    } catch {}
    if (alive) throw new LockedError(`${what} (pid ${held}, lock ${file})`)
    rmSync(file, { force: true })
    take()
  }
  return () => rmSync(file, { force: true })
}

export class LockedError extends Error {}
