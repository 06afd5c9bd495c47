import { hostname } from 'node:os'
import type { Logger } from '../core'
import type { Postgres } from './client'

/** How often an instance says it is alive and renews the reconciler lease. */
export const HEARTBEAT_SECONDS = 2
/**
 * An instance silent this long is dead: its in-progress claims may be taken over, and its reconciler
 * lease by another instance. Five missed heartbeats, so a slow beat or a short database hiccup is not death.
 */
export const LEASE_SECONDS = 10

const NOW = `extract(epoch from clock_timestamp())`

/**
 * This instance in the shared ledger: a heartbeat row other instances read to know whether a claim's
 * holder still lives, and the reconciler lease (one reconciler among the instances; another takes the
 * lease over within LEASE_SECONDS of its holder's death). All times are the database's clock.
 */
export class InstanceRegistry {
  readonly id = `inst_${Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString('base64url')}`
  private timer: ReturnType<typeof setInterval> | undefined
  /** Local time until which this instance may act as the reconciler: the lease it holds, less a margin. */
  private leaderUntil = 0
  private beating: Promise<void> | undefined

  constructor(
    private readonly pg: Postgres,
    private readonly options: { version: string; logger?: Pick<Logger, 'warn' | 'info'> },
  ) {}

  async start(): Promise<void> {
    await this.pg.run('register instance', (sql) =>
      sql.unsafe(`INSERT INTO instances (id, host, pid, version, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, ${NOW}, ${NOW})`, [
        this.id,
        hostname(),
        process.pid,
        this.options.version,
      ]),
    )
    await this.beat()
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_SECONDS * 1000)
    this.timer.unref()
  }

  /** Whether this instance holds the reconciler lease now. */
  leading(): boolean {
    return Date.now() < this.leaderUntil
  }

  /** One heartbeat and lease renewal; a failure leaves the lease to run out (and is seen by /ready). */
  beat(): Promise<void> {
    this.beating ??= (async () => {
      const started = Date.now()
      try {
        const won = await this.pg.run('heartbeat', (sql) =>
          sql.begin(async (tx) => {
            // Re-inserted if another instance's clean-up removed it while this one was frozen.
            await tx.unsafe(
              `INSERT INTO instances (id, host, pid, version, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, ${NOW}, ${NOW})
               ON CONFLICT (id) DO UPDATE SET heartbeat_at = ${NOW}`,
              [this.id, hostname(), process.pid, this.options.version],
            )
            const rows = await tx.unsafe(
              `INSERT INTO leases (name, holder, expires_at) VALUES ('reconciler', $1, ${NOW} + $2)
               ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
               WHERE leases.holder = excluded.holder OR leases.expires_at < ${NOW}
               RETURNING holder`,
              [this.id, LEASE_SECONDS],
            )
            // Instances silent for a day are gone for good: their rows only make the table grow.
            await tx.unsafe(`DELETE FROM instances WHERE heartbeat_at < ${NOW} - 86400`)
            return rows.length > 0
          }),
        )
        const was = this.leading()
        // Counted from before the call: the lease may have been granted at any moment of it.
        this.leaderUntil = won ? started + (LEASE_SECONDS - HEARTBEAT_SECONDS) * 1000 : 0
        if (won && !was)
          this.options.logger?.info('reconciler lease taken: this instance reconciles pending settlements', { instance: this.id })
      } catch (error) {
        this.options.logger?.warn('ledger heartbeat failed', {
          instance: this.id,
          error: String(error instanceof Error ? error.message : error),
        })
      } finally {
        this.beating = undefined
      }
    })()
    return this.beating
  }

  /** Leaves the ledger: the lease is freed at once (no takeover wait) and the instance row removed. */
  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.beating
    this.leaderUntil = 0
    await this.pg
      .run('leave', (sql) =>
        sql.begin(async (tx) => {
          await tx`DELETE FROM leases WHERE holder = ${this.id}`
          await tx`DELETE FROM instances WHERE id = ${this.id}`
        }),
      )
      .catch(() => {})
  }
}
