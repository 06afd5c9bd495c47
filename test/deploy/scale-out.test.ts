/**
 * Scale-out: three instances of the service from the same source, one PostgreSQL ledger (LEDGER_URL),
 * the shipped nginx site in front (round-robin). Real parts only: Debian's PostgreSQL in a throwaway
 * cluster, nginx, and the service as separate processes. What a buyer sees through the load balancer,
 * and what the shared ledger records, is checked in the database itself.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { usdToAtomic } from '../../src/core/usdc'
import { routeById } from '../../src/catalog'
import { startCluster, type Cluster } from '../../support/cluster'
import { series } from '../../support/china-evidence'
import { createPayer } from '../../support/payer'
import { postgresAndNginxReady, upstreamsServing } from '../../support/cluster-checks'
import { startPostgres, type StartedPostgres } from '../../support/postgres'
import { startServer, type StartedServer } from '../../support/server'
import { until } from '../../support/until'

const FILE = 'test/deploy/scale-out.test.ts'
const ROOT = resolve(import.meta.dir, '../..')
const SLOW = 120_000
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const price = (id: string) => usdToAtomic(routeById.get(id)!.priceUsd)

const ready = postgresAndNginxReady(FILE, 'the scale-out tests')

let pg: StartedPostgres
let db: SQL
let dir: string

/** A fresh database on the shared cluster for one group of tests: its URL. */
async function database(name: string): Promise<string> {
  await db.unsafe(`CREATE DATABASE ${name}`)
  return pg.url.replace(/\/postgres$/, `/${name}`)
}

/**
 * For one test: a fresh database `name` on the shared cluster, and `instances` services on it behind
 * nginx (`env` added to LEDGER_URL and the copied datasets). The cluster is stopped and the ledger
 * connection closed after `run`, whatever happens.
 */
async function withCluster(
  name: string,
  instances: number,
  env: Record<string, string>,
  run: (started: { cluster: Cluster; ledger: SQL }) => Promise<void>,
): Promise<void> {
  const url = await database(name)
  const ledger = new SQL(url)
  try {
    const cluster = await startCluster({ instances, env: { LEDGER_URL: url, DATASETS_DIR: join(dir, 'datasets'), ...env } })
    try {
      await run({ cluster, ledger })
    } finally {
      await cluster.stop()
    }
  } finally {
    await ledger.close()
  }
}

if (ready) {
  beforeAll(async () => {
    pg = await startPostgres()
    db = new SQL(pg.url)
    dir = mkdtempSync(join(tmpdir(), 'scale-out-'))
    cpSync(join(ROOT, 'datasets'), join(dir, 'datasets'), { recursive: true })
  }, SLOW)

  afterAll(async () => {
    await db?.close()
    await pg?.destroy()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  describe('three instances behind nginx, one PostgreSQL ledger', () => {
    let cluster: Cluster
    let url: string
    let ledger: SQL

    beforeAll(async () => {
      url = await database('three')
      ledger = new SQL(url)
      cluster = await startCluster({
        instances: 3,
        env: { LEDGER_URL: url, DATASETS_DIR: join(dir, 'datasets'), DATASETS_RELOAD_SECONDS: '0' },
      })
    }, SLOW)

    afterAll(async () => {
      await cluster?.stop()
      await ledger?.close()
    })

    test('every instance reports the shared ledger on /ready, and exactly one holds the reconciler lease', async () => {
      const checks = await Promise.all(
        cluster.instances.map(async (s) => (await (await fetch(`${s.url}/ready`)).json()).data.checks.ledger),
      )
      expect(checks.map((c) => [c.backend, c.status])).toEqual(Array(3).fill(['postgresql', 'ok']))
      expect(new Set(checks.map((c) => c.instance)).size).toBe(3)
      const leases = await ledger`SELECT holder FROM leases WHERE name = 'reconciler'`
      expect(leases.length).toBe(1)
      expect(checks.map((c) => c.instance)).toContain(leases[0].holder)
    })

    test(
      '100 concurrent uses of one proof through the load balancer: one payment, every success the same answer',
      async () => {
        const payer = createPayer()
        const proof = await payer.proof({ value: price('flights.summary') })
        const responses = await Promise.all(
          Array.from({ length: 100 }, () => fetch(`${cluster.url}${SUMMARY}`, { headers: { 'x402-payment': proof } })),
        )
        const bodies = await Promise.all(responses.map((r) => r.json()))
        expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200))
        expect(new Set(bodies.map((b) => b.meta.artifact_path)).size).toBe(1)
        expect(new Set(bodies.map((b) => JSON.stringify(b.data))).size).toBe(1)
        // The load really was spread: nginx passed the requests to every instance.
        const upstreams = await upstreamsServing(cluster, '/flights/summary', 3)
        expect(upstreams.size).toBe(3)
        const rows = await ledger`SELECT state, settlement FROM payments WHERE payer = ${payer.address.toLowerCase()}`
        expect(rows).toEqual([{ state: 'served', settlement: 'local' }])
        const events =
          await ledger`SELECT event, COUNT(*)::int AS n FROM payment_events WHERE payer = ${payer.address.toLowerCase()} GROUP BY event ORDER BY event`
        expect(events).toEqual([
          { event: 'served', n: 1 },
          { event: 'verified', n: 1 },
        ])
      },
      SLOW,
    )

    test('an artifact bought on one instance is served by every other', async () => {
      const payer = createPayer()
      const [a, b, c] = cluster.instances
      const res = await fetch(`${a!.url}${SUMMARY}`, {
        headers: { 'x402-payment': await payer.proof({ value: price('flights.summary') }) },
      })
      expect(res.status).toBe(200)
      const body = await res.text()
      const path = JSON.parse(body).meta.artifact_path
      for (const other of [b!, c!]) {
        const again = await fetch(`${other.url}${path}`)
        expect(again.status).toBe(200)
        expect(await again.text()).toBe(body)
      }
    })

    test('the same proof retried on another instance gets the stored answer, not a second payment', async () => {
      const payer = createPayer()
      const proof = await payer.proof({ value: price('flights.summary') })
      const [a, b] = cluster.instances
      const first = await fetch(`${a!.url}${SUMMARY}`, { headers: { 'x402-payment': proof } })
      const retry = await fetch(`${b!.url}${SUMMARY}`, { headers: { 'x402-payment': proof } })
      expect([first.status, retry.status]).toEqual([200, 200])
      expect(retry.headers.get('x-payment-replay')).toBe('stored-result')
      expect(await retry.text()).toBe(await first.text())
      // The same proof for another request is refused on a third instance.
      const other = await fetch(`${cluster.instances[2]!.url}/v1/market-data/flights/summary?destination=Seoul`, {
        headers: { 'x402-payment': proof },
      })
      expect(other.status).toBe(402)
      expect((await other.json()).error.code).toBe('payment_replayed')
    })

    test(
      'payments report and export read the shared ledger: every payment the instances served, once',
      async () => {
        const cli = (args: string[]) => {
          const r = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), 'payments', ...args], {
            cwd: ROOT,
            env: { ...process.env, LEDGER_URL: url, LOG_LEVEL: 'silent' },
          })
          if (r.exitCode !== 0) throw new Error(`payments ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.toString()}`)
          return r.stdout.toString()
        }
        const [{ n, atomic }] =
          await ledger`SELECT COUNT(*)::int AS n, SUM(amount_atomic::numeric)::text AS atomic FROM payments WHERE state = 'served'`
        expect(n).toBeGreaterThan(0)
        const report = JSON.parse(cli(['report', '--json']))
        expect(report.totals).toMatchObject({ served_count: n, served_atomic: atomic })
        const csv = cli(['export', '--status', 'served']).trimEnd().split('\r\n')
        expect(csv.length).toBe(n + 1) // the header, then one row per served payment
        expect(csv[0]!.startsWith('created_at,updated_at,status,settlement')).toBe(true)
      },
      SLOW,
    )

    test(
      'a wrapper session made on one instance continues on another, reusing its legs',
      async () => {
        const route = routeById.get('capabilities.destination_demand')!
        const query = 'destination=Tokyo'
        const [a, b] = cluster.instances
        const payer = createPayer()
        const first = await (
          await fetch(`${a!.url}${route.path}?${query}`, { headers: { 'x402-payment': await payer.proof({ value: price(route.id) }) } })
        ).json()
        expect(first.data.session.resumed).toBe(false)
        const session = first.data.session.id
        const second = await (
          await fetch(`${b!.url}${route.path}?${query}&session=${session}`, {
            headers: { 'x402-payment': await payer.proof({ value: price(route.id) }) },
          })
        ).json()
        expect(second.data.session).toMatchObject({ id: session, resumed: true })
        expect(second.data.session.reused_legs).toBeGreaterThan(0)
      },
      SLOW,
    )
  })

  describe('the per-payer rate limit holds across instances', () => {
    test(
      'RATE_LIMIT_PAYER_PER_MINUTE=6 on three instances: one payer gets 6 paid answers in all, not 18',
      async () => {
        await withCluster('limits', 3, { RATE_LIMIT_PAYER_PER_MINUTE: '6', DATASETS_RELOAD_SECONDS: '0' }, async ({ cluster }) => {
          const payer = createPayer()
          const proofs = await Promise.all(Array.from({ length: 18 }, () => payer.proof({ value: price('flights.summary') })))
          // Each instance directly, six requests each: a per-instance limit would let all 18 through.
          const responses = await Promise.all(
            proofs.map((p, i) => fetch(`${cluster.instances[i % 3]!.url}${SUMMARY}`, { headers: { 'x402-payment': p } })),
          )
          // Status and error code of each, so a failure says what the others were.
          const outcomes = await Promise.all(
            responses.map(
              async (r) => `${r.status} ${r.status === 200 ? 'ok' : ((await r.json()) as { error: { code: string } }).error.code}`,
            ),
          )
          expect(outcomes.sort()).toEqual([...Array(6).fill('200 ok'), ...Array(12).fill('429 rate_limited')])
        })
      },
      SLOW,
    )
  })

  describe('an instance killed mid-request', () => {
    test(
      'the buyer retries the same proof through the load balancer: answered once, by another instance, one payment',
      async () => {
        // A live web-search provider that holds the first call until the test ends (the request in flight
        // when its instance dies), and answers every later one at once.
        let calls = 0
        const provider = Bun.serve({
          port: 0,
          hostname: '127.0.0.1',
          idleTimeout: 0,
          fetch: () =>
            ++calls === 1
              ? new Promise<Response>(() => {})
              : Response.json({
                  results: series({ text: (i) => `camping 露营 weekend ${i}`, perDay: () => 2, days: 30, idPrefix: 'web' }),
                }),
        })
        const env = {
          WEB_SEARCH_URL: `http://127.0.0.1:${provider.port}/web`,
          WEB_SEARCH_TIMEOUT_MS: '25000',
          INTELLIGENCE_CACHE_TTL_SECONDS: '0',
          KOL_CACHE_TTL_SECONDS: '0',
        }
        try {
          await withCluster('killed', 2, env, async ({ cluster, ledger }) => {
            const route = routeById.get('china.trends')!
            const path = `${route.path}?keyword=camping`
            const payer = createPayer()
            const proof = await payer.proof({ value: price(route.id) })
            const [first] = cluster.instances
            const inFlight = fetch(`${first!.url}${path}`, { headers: { 'x402-payment': proof } }).then(
              (r) => r.status,
              () => 'connection lost',
            )
            const claimed = await until('the claim of the request in flight', async () => {
              const rows = await ledger`SELECT state, holder FROM payments WHERE payer = ${payer.address.toLowerCase()}`
              return rows.length === 1 && calls >= 1 ? rows[0] : undefined
            })
            expect(claimed.state).toBe('in_progress')
            first!.proc.kill('SIGKILL')
            expect(await inFlight).toBe('connection lost')

            // The retry goes through nginx, which passes over the dead instance to the survivor; that waits for
            // the dead holder's heartbeat lease to lapse, takes the claim over and answers.
            const retry = await fetch(`${cluster.url}${path}`, { headers: { 'x402-payment': proof } })
            expect(retry.status).toBe(200)
            const body = await retry.json()
            expect(body.success).toBe(true)
            const rows = await ledger`SELECT state, holder FROM payments WHERE payer = ${payer.address.toLowerCase()}`
            expect(rows.length).toBe(1)
            expect(rows[0].state).toBe('served')
            expect(rows[0].holder).not.toBe(claimed.holder)
            // And again through nginx: the stored answer, no second payment.
            const again = await fetch(`${cluster.url}${path}`, { headers: { 'x402-payment': proof } })
            expect(again.status).toBe(200)
            expect(again.headers.get('x-payment-replay')).toBe('stored-result')
            const served =
              await ledger`SELECT COUNT(*)::int AS n FROM payment_events WHERE payer = ${payer.address.toLowerCase()} AND event = 'served'`
            expect(served[0].n).toBe(1)
          })
        } finally {
          provider.stop(true)
        }
      },
      SLOW,
    )
  })

  describe('the database stopped and restarted under load', () => {
    test(
      'paid requests are refused with 503 before any charge, 402s and free routes keep answering, /ready says why, and payments resume by themselves',
      async () => {
        await withCluster('outage', 2, { DATASETS_RELOAD_SECONDS: '0' }, async ({ cluster, ledger }) => {
          const payer = createPayer()
          const pay = async (proof?: string) =>
            fetch(`${cluster.url}${SUMMARY}`, {
              headers: { 'x402-payment': proof ?? (await payer.proof({ value: price('flights.summary') })) },
            })
          // Load: a buyer keeps paying while the database goes away and comes back. As documented, a 503
          // is retried with the same proof; every other answer ends that proof's purchase.
          let running = true
          const outcomes: { status: number; code?: string; during: 'up' | 'down' | 'back'; proof: string }[] = []
          let phase: 'up' | 'down' | 'back' = 'up'
          let retrying: string | undefined
          const load = (async () => {
            while (running || retrying) {
              const during = phase
              const proof = retrying ?? (await payer.proof({ value: price('flights.summary') }))
              const res = await pay(proof)
              const body = await res.json()
              outcomes.push({ status: res.status, code: body.error?.code, during, proof })
              retrying = res.status === 503 ? proof : undefined
            }
          })()
          await until('paid answers before the outage', async () =>
            outcomes.filter((o) => o.status === 200).length >= 5 ? true : undefined,
          )

          await pg.stop()
          phase = 'down'
          // Refused before any charge, with the documented code; the load balancer's 402 and free routes still answer.
          const refused = await until('a refusal while the database is down', async () => {
            const res = await pay()
            return res.status === 503 ? res : undefined
          })
          const refusal = await refused.json()
          expect(refusal.error.code).toBe('ledger_unavailable')
          expect(refused.headers.get('retry-after')).toBe('5')
          expect((await fetch(`${cluster.url}${SUMMARY}`)).status).toBe(402)
          expect((await fetch(`${cluster.url}/health`)).status).toBe(200)
          expect((await fetch(`${cluster.url}/.well-known/x402`)).status).toBe(200)
          const notReady = await until('/ready to say why', async () => {
            const res = await fetch(`${cluster.instances[0]!.url}/ready`)
            return res.status === 503 ? res.json() : undefined
          })
          expect(notReady.error.code).toBe('ledger_unavailable')
          expect(notReady.error.details.ledger.status).toMatch(/^unreachable: /)

          await pg.start()
          phase = 'back'
          await until('paid answers after the database came back', async () =>
            outcomes.filter((o) => o.during === 'back' && o.status === 200).length >= 5 ? true : undefined,
          )
          for (const s of cluster.instances) {
            await until(`/ready on ${s.url} again`, async () => ((await fetch(`${s.url}/ready`)).status === 200 ? true : undefined))
          }
          running = false
          await load

          // Every outcome is a paid answer or the clean refusal; nothing else (no 500, no settlement error).
          expect(outcomes.filter((o) => !(o.status === 200 || (o.status === 503 && o.code === 'ledger_unavailable')))).toEqual([])
          expect(outcomes.some((o) => o.during === 'down' && o.status === 503)).toBe(true)
          // Every proof the buyer signed ended in its answer (after retries), and each is one served payment, once.
          const proofs = new Set(outcomes.map((o) => o.proof))
          const answered = new Set(outcomes.filter((o) => o.status === 200).map((o) => o.proof))
          expect(answered.size).toBe(proofs.size)
          const rows =
            await ledger`SELECT COUNT(*)::int AS n FROM payments WHERE payer = ${payer.address.toLowerCase()} AND state = 'served'`
          expect(rows[0].n).toBe(proofs.size)
          const served =
            await ledger`SELECT COUNT(*)::int AS n FROM payment_events WHERE payer = ${payer.address.toLowerCase()} AND event = 'served'`
          expect(served[0].n).toBe(proofs.size)
          const open =
            await ledger`SELECT COUNT(*)::int AS n FROM payments WHERE payer = ${payer.address.toLowerCase()} AND state = 'in_progress'`
          expect(open[0].n).toBe(0) // a claim that could not finish was released once the database came back
        })
      },
      SLOW,
    )
  })

  describe('the reconciler lease', () => {
    test(
      'one holder at a time; when it dies another instance takes the lease within the lease time',
      async () => {
        const url = await database('lease')
        const ledger = new SQL(url)
        const started: StartedServer[] = []
        try {
          for (let i = 0; i < 2; i++) started.push(await startServer({ LEDGER_URL: url, DATASETS_DIR: join(dir, 'datasets') }))
          const holderOf = async () =>
            (await ledger`SELECT holder FROM leases WHERE name = 'reconciler' AND expires_at > extract(epoch from clock_timestamp())`)[0]
              ?.holder as string | undefined
          const ids = await Promise.all(
            started.map(async (s) => (await (await fetch(`${s.url}/ready`)).json()).data.checks.ledger.instance as string),
          )
          const first = await until('a lease holder', holderOf)
          expect(ids).toContain(first)
          const holder = started[ids.indexOf(first)]!
          holder.proc.kill('SIGKILL')
          // Who takes over is asserted; the wait is only bounded (LEASE_SECONDS 10 + a heartbeat 2 + a loaded machine's margin).
          const next = await until(
            'another holder',
            async () => {
              const h = await holderOf()
              return h && h !== first ? h : undefined
            },
            20_000,
          )
          expect(next).toBe(ids.find((id) => id !== first)!)
        } finally {
          await Promise.allSettled(started.map((s) => (s.proc.exitCode === null && s.proc.signalCode === null ? s.stop() : s.proc.exited)))
          await ledger.close()
        }
      },
      SLOW,
    )
  })
}
