/**
 * The PostgreSQL ledger (LEDGER_URL), shared by several instances: the PaymentLedger contract, then what
 * only a shared database has: concurrent claims from several pools, takeover of a dead instance's claims,
 * outages, migrations, sessions and the shared rate limit. One throwaway cluster for the file
 * (support/postgres.ts), a fresh database per test. Without PostgreSQL's server binaries: fails in
 * CI, skipped locally.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { SESSION_TTL_SECONDS } from '../../src/catalog/routes/capabilities'
import { LedgerUnavailable } from '../../src/core/stores'
import { Postgres, STATEMENT_DEADLINE_MS } from '../../src/postgres/client'
import { InstanceRegistry, LEASE_SECONDS } from '../../src/postgres/instances'
import { PostgresLedger } from '../../src/ledger/postgres'
import { columnsIn, indexesIn, LEDGER_TABLES } from '../../src/ledger/tables'
import { migrate, MIGRATIONS } from '../../src/ledger/postgres-migrations'
import { SchemaTooNew } from '../../src/postgres/client'
import { PostgresRateLimiter } from '../../src/postgres/rate-buckets'
import { PostgresSessions } from '../../src/postgres/session-store'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../support/postgres'
import { requireTool } from '../../support/required-tool'
import { until } from '../../support/until'
import { ledgerContract } from '../../support/ledger-contract'
import { artifactOf, claimOf, eventOf, type LedgerStore } from '../../support/ledger-fixtures'

const FILE = 'test/ledger/postgres.test.ts'
const hasPostgres = requireTool(
  FILE,
  postgresMissing(),
  ".ci/run installs Debian's postgresql package; the shared ledger is tested against it",
)
const T = 30_000

describe.skipIf(!hasPostgres)('PostgreSQL ledger', () => {
  let cluster: StartedPostgres
  let admin: SQL
  beforeAll(async () => {
    cluster = await startPostgres()
    admin = new SQL(cluster.url, { max: 2 })
  }, 60_000)
  afterAll(async () => {
    await admin?.close()
    await cluster?.destroy()
  })

  let databases = 0
  /** A new, empty database on the cluster (migrated unless told otherwise); its URL. */
  const freshDatabase = async (o: { migrated?: boolean } = {}): Promise<string> => {
    const name = `t_${++databases}`
    await admin.unsafe(`CREATE DATABASE ${name}`)
    const url = cluster.url.replace(/\/postgres$/, `/${name}`)
    if (o.migrated !== false) {
      const pg = new Postgres(url)
      await migrate(pg)
      await pg.close()
    }
    return url
  }

  /** Closed after each test, last opened first. */
  let cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    await cluster.start() // after a test that stopped it and failed before starting it again
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {})
  })

  /** A pool on `url`, closed after the test. */
  const pool = (url: string) => {
    const pg = new Postgres(url)
    cleanups.push(() => pg.close())
    return pg
  }
  const pools = (url: string, count: number) => Array.from({ length: count }, () => pool(url))

  type InstanceOptions = { id?: string; heartbeatAge?: number }
  /**
   * One instance of the service as far as the ledger goes: its own pool, and its heartbeat in `instances`
   * (a running InstanceRegistry), none (`id` given, never registered) or one `heartbeatAge` seconds old.
   * Closed with what `closes` holds (last opened first).
   */
  const openInstance = async (url: string, closes: (() => Promise<void>)[], options: InstanceOptions = {}) => {
    const pg = new Postgres(url)
    const registry = options.id ? undefined : new InstanceRegistry(pg, { version: 'test' })
    const id = options.id ?? registry!.id
    const ledger = new PostgresLedger(pg, id)
    closes.push(async () => {
      await ledger.close()
      await registry?.stop()
      await pg.close()
    })
    await registry?.start()
    if (options.heartbeatAge !== undefined) {
      await pg.sql.unsafe(
        `INSERT INTO instances (id, host, pid, version, started_at, heartbeat_at)
         VALUES ($1, 'h', 1, 'test', extract(epoch from clock_timestamp()) - $2, extract(epoch from clock_timestamp()) - $2)`,
        [id, options.heartbeatAge],
      )
    }
    return { pg, registry, id, ledger }
  }
  /** An instance closed after the test. */
  const instance = (url: string, options: InstanceOptions = {}) => openInstance(url, cleanups, options)
  const row = (pg: Postgres, key: string) =>
    pg.sql<
      { state: string; request_id: string; holder: string; artifact_id: string | null }[]
    >`SELECT state, request_id, holder, artifact_id FROM payments WHERE key = ${key}`.then((r) => r[0] ?? null)
  /** The rows of `table`, or of one payment's. */
  const count = async (pg: Postgres, table: 'payment_events' | 'artifacts', paymentKey?: string) => {
    const where = paymentKey === undefined ? '' : ' WHERE payment_key = $1'
    const [result] = await pg.sql.unsafe(`SELECT count(*) AS n FROM ${table}${where}`, paymentKey === undefined ? [] : [paymentKey])
    return Number(result.n)
  }

  ledgerContract({
    name: 'PostgreSQL',
    sharedStorage: true,
    async fresh(): Promise<LedgerStore> {
      const url = await freshDatabase()
      const inspect = new Postgres(url)
      const closes: (() => Promise<void>)[] = []
      return {
        async open() {
          // Each ledger another instance: its own pool and a live heartbeat (a claim of an instance
          // without one is free for takeover at once).
          return (await openInstance(url, closes)).ledger
        },
        async payment(key) {
          const rows = await inspect.sql<
            { state: string; settlement: string | null; tx_hash: string | null }[]
          >`SELECT state, settlement, tx_hash FROM payments WHERE key = ${key}`
          return rows[0] ? { ...rows[0] } : null
        },
        async events(key) {
          return [
            ...(await inspect.sql<
              { event: string; tx_hash: string | null }[]
            >`SELECT event, tx_hash FROM payment_events WHERE payment_key = ${key} ORDER BY seq`),
          ]
        },
        async dispose() {
          for (const c of closes.splice(0).reverse()) await c()
          await inspect.close()
        },
      }
    },
  })

  test(
    'two instances claim one nonce 100 times at once: exactly one claim wins, for each of 10 nonces',
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      const b = await instance(url)
      for (let k = 0; k < 10; k++) {
        const key = `race-${k}`
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            (i % 2 === 0 ? a : b).ledger.claim(claimOf(key, { requestId: `req-${k}-${i}` }), 1000, 900).then((r) => ({ i, r })),
          ),
        )
        const won = results.filter((x) => x.r.status === 'claimed')
        expect(won.length).toBe(1)
        expect(won[0]!.r).toEqual({ status: 'claimed' })
        expect(results.filter((x) => x.r.status === 'taken' && x.r.state === 'in_progress').length).toBe(99)
        const stored = (await row(a.pg, key))!
        expect(stored.request_id).toBe(`req-${k}-${won[0]!.i}`)
        expect(stored.holder).toBe(won[0]!.i % 2 === 0 ? a.id : b.id)
      }
    },
    T,
  )

  test(
    'two instances race 40 payloads (40 nonces) under one payment id of one payer: exactly one is claimed, every other is id_conflict',
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      const b = await instance(url)
      const id = 'pay_race0123456789abcdef'
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? a : b).ledger.claim(claimOf(`idrace-${i}`, { paymentId: id, payloadDigest: `digest-${i}` }), 1000, 900),
        ),
      )
      expect(results.filter((r) => r.status === 'claimed').length).toBe(1)
      expect(results.filter((r) => r.status === 'id_conflict').length).toBe(39)
      const held = await a.pg.run('test', (sql) => sql`SELECT key FROM payments WHERE payment_id = ${id}`)
      expect(held.length).toBe(1)
    },
    T,
  )

  test(
    "an in_progress claim of an instance without a live heartbeat is taken over at once; a live instance's only after staleBefore",
    async () => {
      const url = await freshDatabase()
      const live = await instance(url)
      const leaving = await instance(url)
      const gone = await instance(url, { id: 'inst_never_registered' })
      const silent = await instance(url, { id: 'inst_silent', heartbeatAge: LEASE_SECONDS + 5 })
      const recent = await instance(url, { id: 'inst_recent', heartbeatAge: 1 })
      const taker = await instance(url)
      for (const [name, holder] of Object.entries({ live, leaving, gone, silent, recent })) {
        expect(await holder.ledger.claim(claimOf(name), 1000, 1000 - 61)).toEqual({ status: 'claimed' })
      }
      await leaving.registry!.stop() // its instances row is deleted, as on a clean shutdown that left a claim behind

      const take = (key: string, now: number) => taker.ledger.claim(claimOf(key, { requestId: `req-taker-${key}-${now}` }), now, now - 61)
      expect(await take('live', 1001)).toMatchObject({ status: 'taken', state: 'in_progress' })
      expect(await take('recent', 1001)).toMatchObject({ status: 'taken', state: 'in_progress' })
      for (const key of ['leaving', 'gone', 'silent']) {
        expect(await take(key, 1001)).toEqual({ status: 'claimed', takenOver: true })
        expect(await row(taker.pg, key)).toMatchObject({ state: 'in_progress', request_id: `req-taker-${key}-1001`, holder: taker.id })
      }
      // Held by the taker now, which heartbeats: not free again for anyone.
      expect(await live.ledger.claim(claimOf('gone', { requestId: 'req-again' }), 1002, 1002 - 61)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
      })
      // A live holder's claim untouched since staleBefore (the payment window) is taken over all the same.
      expect(await take('live', 1100)).toEqual({ status: 'claimed', takenOver: true })
    },
    T,
  )

  test(
    "after a takeover, the old holder's late complete, park and release change nothing: the new holder's result wins",
    async () => {
      const url = await freshDatabase()
      const old = await instance(url)
      const next = await instance(url)
      for (const key of ['late-first', 'late-last', 'late-park', 'late-release'])
        await old.ledger.claim(claimOf(key, { requestId: `req-old-${key}` }), 1000, 939)
      await old.registry!.stop() // seen as dead by the others; its ledger object still holds its claims
      for (const key of ['late-first', 'late-last', 'late-park', 'late-release']) {
        expect(await next.ledger.claim(claimOf(key, { requestId: `req-next-${key}` }), 1001, 940)).toEqual({
          status: 'claimed',
          takenOver: true,
        })
      }

      // The old holder answers while the new one is still working...
      old.ledger.complete('late-first', { id: 'art_old_1', body: 'old', expiresAt: 10_000 }, 1002)
      old.ledger.park('late-park', { id: 'art_old_p', body: 'old', expiresAt: 10_000 }, 1002, '0xold')
      old.ledger.release('late-release', 1002)
      await old.ledger.durable()
      for (const key of ['late-first', 'late-park', 'late-release'])
        expect(await row(next.pg, key)).toMatchObject({ state: 'in_progress', request_id: `req-next-${key}`, artifact_id: null })
      // ...so the nonce it released is still not free for a third request.
      expect(await old.ledger.claim(claimOf('late-release', { requestId: 'req-third' }), 1003, 940)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
      })

      // ...or after it.
      next.ledger.complete('late-last', { id: 'art_next_2', body: 'next', expiresAt: 10_000 }, 1003)
      await next.ledger.durable()
      old.ledger.complete('late-last', { id: 'art_old_2', body: 'old', expiresAt: 10_000 }, 1004)
      await old.ledger.durable()

      for (const [key, art] of [
        ['late-first', 'art_next_1'],
        ['late-park', 'art_next_p'],
        ['late-release', 'art_next_r'],
      ] as const)
        next.ledger.complete(key, { id: art, body: 'next', expiresAt: 10_000 }, 1005)
      await next.ledger.durable()
      for (const [key, art] of [
        ['late-first', 'art_next_1'],
        ['late-last', 'art_next_2'],
        ['late-park', 'art_next_p'],
        ['late-release', 'art_next_r'],
      ] as const) {
        expect(await next.ledger.lookup(key)).toMatchObject({ state: 'served', artifactId: art })
        expect((await next.ledger.artifact(art, 1006))?.body).toBe('next')
      }
      for (const art of ['art_old_1', 'art_old_2', 'art_old_p']) expect(await next.ledger.artifact(art, 1006)).toBeNull()
    },
    T,
  )

  test(
    'durable() rejects with LedgerUnavailable while the database is down; the change stays queued and is committed once it is back',
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      const reader = await instance(url)
      expect(await a.ledger.claim(claimOf('o1'), 1000, 900)).toEqual({ status: 'claimed' })
      await cluster.stop()
      a.ledger.record(eventOf('o1', 'verified'))
      a.ledger.complete('o1', artifactOf('art_o1'), 1001)
      a.ledger.record(eventOf('o1', 'served', 1001))
      await expect(a.ledger.durable()).rejects.toBeInstanceOf(LedgerUnavailable)
      // Still queued: a second durable() tries again (and fails again) rather than resolving on an empty queue.
      await expect(a.ledger.durable()).rejects.toBeInstanceOf(LedgerUnavailable)
      await cluster.start()
      // Nobody calls durable(): the ledger's own retry commits the queued change.
      await until(
        'the queued complete to be committed by the retry',
        async () => ((await reader.ledger.lookup('o1'))?.state === 'served' ? true : undefined),
        { ms: 15_000, every: 50 },
      )
      await a.ledger.durable()
      expect((await reader.ledger.artifact('art_o1', 1002))?.body).toBe('{"answer":"art_o1"}')
      // Every failed attempt was rolled back: each event is recorded once.
      expect(await count(reader.pg, 'payment_events', 'o1')).toBe(2)
      expect(await count(reader.pg, 'artifacts')).toBe(1)
    },
    T,
  )

  test(
    'a claim while the database is down is refused with LedgerUnavailable at once, writes nothing, and the same pool claims again once it is back',
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      expect(await a.ledger.claim(claimOf('warm'), 1000, 900)).toEqual({ status: 'claimed' }) // the pool has live connections
      await cluster.stop()
      const refused = await a.ledger.claim(claimOf('c1'), 1000, 900).then(
        (r) => r,
        (e: unknown) => e,
      )
      expect(refused).toBeInstanceOf(LedgerUnavailable)
      // At once: refused by the connection the database no longer accepts, not by waiting out the statement deadline.
      expect((refused as Error).message).toMatch(/^claim: ERR_POSTGRES_CONNECTION_(REFUSED|CLOSED)/)
      expect((refused as Error).message).not.toContain(`no answer from PostgreSQL in ${STATEMENT_DEADLINE_MS} ms`)
      await expect(a.ledger.lookup('c1')).rejects.toBeInstanceOf(LedgerUnavailable)
      expect(a.pg.status()).toStartWith('unreachable: ')
      await cluster.start()

      const pg = pool(url)
      expect(await row(pg, 'c1')).toBeNull()
      // The client retries (a new request id): the same Postgres object reconnects and claims.
      expect(await a.ledger.claim(claimOf('c1', { requestId: 'req-c1-retry' }), 1002, 900)).toEqual({ status: 'claimed' })
      expect(a.pg.status()).toBe('ok')
      // The refused claim's queued clean-up (free it, had it landed) does not touch the new claim.
      await a.ledger.durable()
      expect(await row(pg, 'c1')).toMatchObject({ state: 'in_progress', request_id: 'req-c1-retry' })
      expect(await row(pg, 'warm')).toMatchObject({ state: 'in_progress', request_id: 'req-warm' })
    },
    T,
  )

  /**
   * A refused claim queues "in_progress -> failed" in case it landed after all. A client may choose its
   * request id (x-request-id is kept when log-safe) and the 503 tells it to retry the same request: the
   * retry's claim, made before that clean-up is committed, must keep its claim and record its answer.
   * (Found in review: the clean-up was guarded by the request id; it is now guarded by the claim's own id.)
   * The outage is this pool's alone (its run() refuses) and ends just after the clean-up's commit failed,
   * as a real one does, so the retry comes first.
   */
  test(
    "a client's retry with the same request id after a refused claim keeps its new claim and records its answer",
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      const run = a.pg.run.bind(a.pg)
      let down = true
      a.pg.run = ((what: string, work: Parameters<Postgres['run']>[1]) =>
        down ? Promise.reject(new LedgerUnavailable(`${what}: down`)) : run(what, work)) as Postgres['run']
      await expect(a.ledger.claim(claimOf('same', { requestId: 'client-chosen-id' }), 1000, 900)).rejects.toBeInstanceOf(LedgerUnavailable)
      await expect(a.ledger.durable()).rejects.toBeInstanceOf(LedgerUnavailable) // the clean-up's first commit failed: retried in 1 s
      down = false
      expect(await a.ledger.claim(claimOf('same', { requestId: 'client-chosen-id' }), 1001, 900)).toEqual({ status: 'claimed' })
      a.ledger.complete('same', artifactOf('art_same'), 1002)
      await a.ledger.durable()
      expect(await a.ledger.lookup('same')).toMatchObject({ state: 'served', artifactId: 'art_same' })
    },
    T,
  )

  test(
    'the same queued changes committed twice (a commit cut off by the deadline that landed) record each event and artifact once',
    async () => {
      const url = await freshDatabase()
      const a = await instance(url)
      await a.ledger.claim(claimOf('twice'), 1000, 900)
      a.ledger.record(eventOf('twice', 'verified'))
      a.ledger.complete('twice', artifactOf('art_twice'), 1001, { kind: 'settled', txHash: '0xfeed' })
      a.ledger.record({ ...eventOf('twice', 'settled', 1001), txHash: '0xfeed' })
      const queue = (a.ledger as unknown as { queue: unknown[] }).queue
      const ops = [...queue]
      expect(ops.length).toBe(4) // artifact, state, two events
      await a.ledger.durable()
      queue.push(...ops) // what flush() does with a commit it saw fail
      await a.ledger.durable()
      expect(await count(a.pg, 'payment_events', 'twice')).toBe(2)
      expect(await count(a.pg, 'artifacts', 'twice')).toBe(1)
      expect(await a.ledger.lookup('twice')).toMatchObject({ state: 'served', artifactId: 'art_twice', txHash: '0xfeed', updatedAt: 1001 })
    },
    T,
  )

  test(
    'migrate() run by three instances at once on an empty database applies each migration once; a newer schema is refused',
    async () => {
      const url = await freshDatabase({ migrated: false })
      const pgs = pools(url, 3)
      const results = await Promise.all(pgs.map((p) => migrate(p)))
      const versions = MIGRATIONS.map((m) => m.version)
      expect(results.filter((r) => r.applied.length > 0).map((r) => r.applied)).toEqual([versions])
      expect(results.every((r) => r.version === versions.at(-1))).toBe(true)
      const rows = await pgs[0]!.sql<
        { version: number; n: string }[]
      >`SELECT version, count(*) AS n FROM schema_migrations GROUP BY version ORDER BY version`
      expect(rows.map((r) => [r.version, Number(r.n)])).toEqual(versions.map((v) => [v, 1]))
      expect((await migrate(pgs[1]!)).applied).toEqual([])

      const newer = versions.at(-1)! + 1
      await pgs[0]!.sql`INSERT INTO schema_migrations (version, name) VALUES (${newer}, 'from a newer release')`
      await expect(migrate(pgs[2]!)).rejects.toBeInstanceOf(SchemaTooNew)
      expect(pgs[2]!.status()).toBe('ok') // refused, not unreachable
    },
    T,
  )

  test(
    "the migrations arrive at the ledger's declared tables (src/ledger/tables.ts): every column with its type and nullability, in order, and every index",
    async () => {
      const url = await freshDatabase()
      const sql = pool(url).sql
      for (const table of LEDGER_TABLES) {
        const columns = await sql<{ column_name: string; data_type: string; is_nullable: string }[]>`
          SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = ${table.name} ORDER BY ordinal_position`
        expect({ table: table.name, columns: columns.map((c) => [c.column_name, c.data_type, c.is_nullable === 'NO']) }).toEqual({
          table: table.name,
          columns: columnsIn(table, 'postgres').map((c) => [c.name, c.type, c.required === true || c.key === true]),
        })
      }
      const names = LEDGER_TABLES.map((table) => table.name)
      // The indexes behind primary keys and unique constraints aside.
      const indexes = await sql<{ indexname: string; indexdef: string }[]>`
        SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ${sql(names)} AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname`
      expect(indexes.map((index) => [index.indexname, index.indexdef.startsWith('CREATE UNIQUE')])).toEqual(
        indexesIn('postgres')
          .map((index) => [index.name, index.unique === true])
          .sort(([left], [right]) => String(left).localeCompare(String(right))),
      )
    },
    T,
  )

  test(
    'pending(now) on another instance lists dead claims; its resolve applies only while the request id still holds the nonce',
    async () => {
      const url = await freshDatabase()
      const dead = await instance(url, { id: 'inst_dead' })
      const reconciler = await instance(url)
      const taker = await instance(url)
      const now = 10_000
      await dead.ledger.claim(claimOf('r1', { validBefore: String(now - 100) }), now - 200, now - 300)
      await dead.ledger.claim(claimOf('r2', { validBefore: String(now - 100) }), now - 200, now - 300)
      await dead.ledger.claim(claimOf('alive', { validBefore: String(now - 30) }), now - 200, now - 300)
      const open = await reconciler.ledger.pending(now)
      expect(open.map((p) => [p.claim.key, p.state, p.claim.requestId]).sort()).toEqual([
        ['r1', 'in_progress', 'req-r1'],
        ['r2', 'in_progress', 'req-r2'],
      ])
      // r2 is taken over by a new request between the reconciler's read and its verdict.
      expect(await taker.ledger.claim(claimOf('r2', { requestId: 'req-r2-new' }), now, now - 61)).toEqual({
        status: 'claimed',
        takenOver: true,
      })
      for (const p of open) {
        const applied = await reconciler.ledger.resolve(p.claim.key, { settled: false }, now, {
          state: 'in_progress',
          requestId: p.claim.requestId,
        })
        expect([p.claim.key, applied]).toEqual([p.claim.key, p.claim.key === 'r1'])
      }
      expect(await row(taker.pg, 'r1')).toMatchObject({ state: 'failed' })
      expect(await row(taker.pg, 'r2')).toMatchObject({ state: 'in_progress', request_id: 'req-r2-new' })
    },
    T,
  )

  test(
    'a session opened and saved on one instance is resumed with its legs on another; an expired one is not',
    async () => {
      const url = await freshDatabase()
      const pg1 = pool(url)
      const pg2 = pool(url)
      const t = Date.now()
      const one = new PostgresSessions(pg1, undefined, () => t)
      const opened = await one.open(undefined)
      expect(opened.resumed).toBe(false)
      opened.session.legs.set('flights.summary|tokyo', { rows: [{ month: '2024-01', seats: 12 }] })
      opened.session.legs.set('spend.months|', ['2024-01', '2024-02'])
      await one.save(opened.session)

      const two = new PostgresSessions(pg2, undefined, () => t + 60_000)
      const resumed = await two.open(opened.session.id)
      expect(resumed.resumed).toBe(true)
      expect(resumed.session.id).toBe(opened.session.id)
      expect(resumed.session.legs).toEqual(opened.session.legs)
      // A leg added on the second instance is seen by the first.
      resumed.session.legs.set('flights.trend|tokyo', 42)
      await two.save(resumed.session)
      expect((await one.open(opened.session.id)).session.legs.get('flights.trend|tokyo')).toBe(42)

      // Each open extends the session; past its lifetime since the last one, it is gone.
      const later = new PostgresSessions(pg2, undefined, () => t + SESSION_TTL_SECONDS * 1000 + 1)
      const expired = await later.open(opened.session.id)
      expect(expired.resumed).toBe(false)
      expect(expired.session.id).not.toBe(opened.session.id)
      expect(expired.session.legs.size).toBe(0)
      expect((await later.open('ses_unknown')).resumed).toBe(false)
    },
    T,
  )

  test(
    'two instances share one per-payer limit: 10 concurrent requests at 5 a minute, exactly 5 pass',
    async () => {
      const url = await freshDatabase()
      const limiters = pools(url, 2).map((pg) => new PostgresRateLimiter(pg, 5, 'payer'))
      const waits = await Promise.all(Array.from({ length: 10 }, (_, i) => limiters[i % 2]!.take('0xpayer')))
      expect(waits.filter((w) => w === 0).length).toBe(5)
      expect(waits.filter((w) => w !== 0).every((w) => w >= 1 && w <= 12)).toBe(true) // one token refills in 12 s
      expect(await limiters[0]!.take('0xother')).toBe(0) // another payer has its own bucket
    },
    T,
  )

  test(
    'statements that started out of order never refund or double-count time: 3 instances, 60 concurrent takes, 5 payers, exactly 6 each',
    async () => {
      // now() is when a statement's transaction began, not when it got the row: a statement that began
      // earlier may update the bucket after a later one. Its elapsed time must not go negative.
      const url = await freshDatabase()
      const limiters = pools(url, 3).map((pg) => new PostgresRateLimiter(pg, 6, 'payer'))
      for (let payer = 0; payer < 5; payer++) {
        const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => limiters[i % 3]!.take(`0xpayer${payer}`)))
        expect(waits.filter((w) => w === 0).length).toBe(6)
      }
    },
    T,
  )
})
