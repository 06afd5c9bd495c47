/**
 * The console on a PostgreSQL ledger (LEDGER_URL, a throwaway cluster): the same figures as `payments
 * report` read from the same database, with a made-up history and payments made just now.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runCli } from '../../support/cli-run'
import { history, writePostgresHistory } from '../../support/ledger-history'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../support/postgres'
import { requireTool } from '../../support/required-tool'
import { startServer, type StartedServer } from '../../support/server'
import { consoleFigures, NETWORKS, payTraffic, TOKEN } from './support'

const missing = postgresMissing()
requireTool('test/console/console-postgres.test.ts', missing, ".ci/run installs Debian's postgresql package")

describe.skipIf(missing !== null)('the console on PostgreSQL', () => {
  let pg: StartedPostgres
  let server: StartedServer

  beforeAll(async () => {
    pg = await startPostgres()
    await writePostgresHistory(pg.url, history({ now: Math.floor(Date.now() / 1000), days: 45, perDay: 40 }))
    server = await startServer({
      LEDGER_URL: pg.url,
      METRICS_TOKEN: TOKEN,
      PAYMENT_MODE: 'local',
      PAYMENT_NETWORKS: NETWORKS,
      WARM_UP_SAMPLE_ANSWERS: 'false',
    })
    await payTraffic(server.url)
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await pg?.destroy()
  })

  test('the JSON revenue is `payments report --by day --since <window> --json` from the same database, field for field', async () => {
    const figures = await consoleFigures(server.url)
    const cli = await runCli(['payments', 'report', '--by', 'day', '--since', figures.window.days_from.slice(0, 10), '--json'], {
      LEDGER_URL: pg.url,
    })
    expect(cli.code).toBe(0)
    expect(figures.report).toEqual(JSON.parse(cli.out))
    expect(figures.report.totals.local_count).toBe(5)
    expect(figures.payments.released_count).toBeGreaterThan(0)
    expect(figures.payments.pending_count).toBeGreaterThan(0)
    expect(figures.health.ledger).toEqual({ backend: 'postgresql', status: 'ok' })
    const sum = (rows: { served_atomic: string }[]) => rows.reduce((t, r) => t + BigInt(r.served_atomic), 0n).toString()
    for (const series of [figures.by_day, figures.by_route, figures.by_network])
      expect(sum(series)).toBe(figures.report.totals.served_atomic)
    expect(figures.by_hour).toHaveLength(48)
  })
})
