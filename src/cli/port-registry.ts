import { Database } from 'bun:sqlite'

/**
 * Which instances listen on which host:port with REUSE_PORT, recorded in the ledger file they share.
 * An instance finding its port held joins only when a live instance is registered for it in its own
 * ledger file: the holder then provably writes to the same ledger. Rows of dead processes (SIGKILL,
 * crash) are dropped when read.
 */
export class PortRegistry {
  private readonly db: Database

  constructor(ledgerPath: string) {
    this.db = new Database(ledgerPath, { create: true })
    this.db.exec('PRAGMA busy_timeout = 5000;')
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS listeners (address TEXT NOT NULL, pid INTEGER NOT NULL, started_at INTEGER NOT NULL, PRIMARY KEY (address, pid)) WITHOUT ROWID',
    )
  }

  /** Runs `work` holding the file's write lock (BEGIN IMMEDIATE). */
  exclusive<T>(work: () => T): T {
    return this.db.transaction(work).immediate()
  }

  /** Live processes registered on `address`, other than this one. */
  holders(address: string): number[] {
    const rows = this.db.query<{ pid: number }, [string]>('SELECT pid FROM listeners WHERE address = ?').all(address)
    const alive: number[] = []
    for (const { pid } of rows) {
      if (pid === process.pid) continue
      if (isAlive(pid)) alive.push(pid)
      else this.remove(address, pid)
    }
    return alive
  }

  add(address: string, pid: number): void {
    this.db
      .query('INSERT OR REPLACE INTO listeners (address, pid, started_at) VALUES (?, ?, ?)')
      .run(address, pid, Math.floor(Date.now() / 1000))
  }

  remove(address: string, pid: number): void {
    this.db.query('DELETE FROM listeners WHERE address = ? AND pid = ?').run(address, pid)
  }

  close(): void {
    this.db.close()
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' // exists, another user's
  }
}
