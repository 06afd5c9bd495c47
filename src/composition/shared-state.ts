import type { Logger } from '../core'
import {
  InstanceRegistry,
  Postgres,
  PostgresAnswerCache,
  PostgresRateLimiter,
  PostgresSessions,
  redactUrl,
  SchemaTooNew,
} from '../postgres'
import { migrate, PostgresLedger } from '../ledger'

/** How often an instance that could not reach the database at start-up tries again. */
const CONNECT_RETRY_MS = 2000

/**
 * What instances behind one load balancer share through PostgreSQL (LEDGER_URL): the payment ledger,
 * wrapper sessions, the per-payer rate limit, their heartbeats and the reconciler lease.
 *
 * Start-up does not wait for the database: an instance whose database is down answers its 402s and
 * free routes, refuses paid requests with 503 `ledger_unavailable`, says so on /ready, and takes
 * payments as soon as the database answers (schema migrated, heartbeat started). A schema newer than
 * this release stops start-up.
 */
export async function openSharedState(options: { url: string; version: string; payerPerMinute: number; logger: Logger }) {
  const pg = new Postgres(options.url)
  const registry = new InstanceRegistry(pg, { version: options.version, logger: options.logger })
  const ledger = new PostgresLedger(pg, registry.id)
  let connected = false
  let closed = false
  let retry: ReturnType<typeof setTimeout> | undefined

  const connect = async (): Promise<void> => {
    try {
      const { applied, version } = await migrate(pg)
      if (applied.length > 0) options.logger.info('ledger schema migrated', { ledger: redactUrl(options.url), applied, version })
      await registry.start()
      connected = true
      options.logger.info('shared ledger connected', { ledger: redactUrl(options.url), instance: registry.id })
    } catch (error) {
      if (error instanceof SchemaTooNew) throw error
      options.logger.error('shared ledger unreachable: paid requests answer 503 ledger_unavailable until it is back', {
        ledger: redactUrl(options.url),
        error: String(error instanceof Error ? error.message : error),
      })
      if (!closed)
        retry = setTimeout(
          () => void connect().catch((err: unknown) => options.logger.error('shared ledger refused', { error: String(err) })),
          CONNECT_RETRY_MS,
        )
    }
  }
  await connect()

  return {
    pg,
    registry,
    ledger,
    sessions: new PostgresSessions(pg, options.logger),
    /** Live evidence answers shared by the instances, with single flight across them. */
    answers: new PostgresAnswerCache(pg, registry.id, options.logger),
    payerLimiter: new PostgresRateLimiter(pg, options.payerPerMinute, 'payer'),
    /** For /ready: whether the database answers, this instance's id, and whether it runs the reconciler. */
    status() {
      const reachable = pg.status()
      return {
        ok: connected && reachable === 'ok',
        check: {
          backend: 'postgresql',
          url: redactUrl(options.url),
          status: connected ? reachable : `connecting: ${reachable === 'ok' ? 'schema not ready' : reachable}`,
          instance: registry.id,
          reconciler_lease: registry.leading() ? 'this instance' : 'another instance (or none yet)',
        },
      }
    },
    async close() {
      closed = true
      clearTimeout(retry)
      await ledger.close()
      await registry.stop()
      await pg.close()
    },
  }
}

export type SharedState = Awaited<ReturnType<typeof openSharedState>>
