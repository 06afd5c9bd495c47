/**
 * The multi-instance test infrastructure itself, before the service reads LEDGER_URL: a throwaway
 * PostgreSQL (support/postgres.ts) that can go away and come back with its data, and several
 * instances behind the shipped nginx site (support/cluster.ts) that share the load and survive the
 * loss of one. Without nginx or PostgreSQL's server binaries: fails in CI, skipped locally.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { startCluster, type Cluster } from '../../support/cluster'
import { eventually } from '../../support/from-address'
import { nginxBinary } from '../../support/nginx'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../support/postgres'
import { requireTool } from '../../support/required-tool'

const FILE = 'test/deploy/cluster.test.ts'
const hasPostgres = requireTool(
  FILE,
  postgresMissing(),
  ".ci/run installs Debian's postgresql package; the shared-ledger tests run against it",
)
const hasNginx = requireTool(
  FILE,
  nginxBinary() ? null : 'nginx is not installed (not on PATH or in /usr/sbin)',
  ".ci/run installs Debian's nginx package; the cluster runs behind the shipped deploy/nginx site",
)

/** `work` on a new connection to `url`, closed afterwards whatever happens. */
async function withConnection<T>(url: string, work: (sql: SQL) => Promise<T>): Promise<T> {
  const sql = new SQL(url)
  try {
    return await work(sql)
  } finally {
    await sql.close()
  }
}

describe.skipIf(!hasPostgres)('a throwaway PostgreSQL', () => {
  let pg: StartedPostgres | undefined
  afterAll(async () => {
    await pg?.destroy()
  })

  test('answers, goes away on stop(), and comes back on the same port with its data on start()', async () => {
    pg = await startPostgres()
    expect(pg.url).toBe(`postgres://postgres@127.0.0.1:${pg.port}/postgres`)
    await withConnection(pg.url, async (before) => {
      expect((await before`select 1 as one`)[0]).toEqual({ one: 1 })
      await before`create table survives (v int)`
      await before`insert into survives values (7)`
    })

    await pg.stop()
    await withConnection(pg.url, async (during) => {
      await expect(during`select 1`).rejects.toThrow()
    })

    await pg.start()
    await withConnection(pg.url, async (after) => expect([...(await after`select v from survives`)]).toEqual([{ v: 7 }]))
    expect(await pg.psql('select count(*) from survives')).toBe('1')
  }, 60_000)
})

describe.skipIf(!hasNginx)('three instances behind the shipped nginx site', () => {
  let cluster: Cluster | undefined
  beforeAll(async () => {
    cluster = await startCluster({ instances: 3, env: { LEDGER_PATH: ':memory:' } })
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  /**
   * GET /health `n` times through nginx, each tagged `?batch=<batch>`; then, once nginx has written them
   * (it logs after answering), their access-log lines: the upstreams tried ($upstream_addr,
   * the last one answered).
   */
  const health = async (batch: string, n: number) => {
    const statuses: number[] = []
    for (let i = 0; i < n; i++) statuses.push((await fetch(`${cluster!.url}/health?batch=${batch}`)).status)
    const mine = () =>
      cluster!.nginx
        .accessLog()
        .split('\n')
        .filter((l) => l.includes(`"GET /health?batch=${batch} `))
    const lines = (await eventually(mine, (l) => l.length >= n, `${n} access-log lines of batch ${batch}`)).map((l) => ({
      upstreams: l.slice(l.lastIndexOf('" ') + 2).split(', '),
    }))
    return { statuses, lines }
  }
  const address = (port: number) => `127.0.0.1:${port}`
  /** 30 requests through nginx: every one a 200 and logged, answered by exactly `instances`; their log lines. */
  const expectAnsweredBy = async (batch: string, instances: { port: number }[]) => {
    const { statuses, lines } = await health(batch, 30)
    expect(statuses).toEqual(Array(30).fill(200))
    expect(lines).toHaveLength(30)
    const answeredBy = new Set(lines.map((l) => l.upstreams.at(-1)))
    expect([...answeredBy].sort()).toEqual(instances.map((s) => address(s.port)).sort())
    return lines
  }

  test("requests reach every instance, and a 402 names nginx's URL", async () => {
    const c = cluster!
    await expectAnsweredBy('all', c.instances)

    const res = await fetch(`${c.url}/v1/market-data/flights/months`, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(402)
    expect((await res.json()).accepts[0].resource).toBe(`${c.url}/v1/market-data/flights/months`)
  }, 60_000)

  test('with one instance killed (SIGKILL), nginx keeps answering from the others', async () => {
    const c = cluster!
    const [dead, ...alive] = c.instances as [(typeof c.instances)[number], ...typeof c.instances]
    dead.proc.kill('SIGKILL')
    await dead.proc.exited
    const lines = await expectAnsweredBy('one-killed', alive)
    // nginx did try the dead one (its turn came round) and passed the request on: not a lucky rotation.
    expect(lines.some((l) => l.upstreams.length > 1 && l.upstreams[0] === address(dead.port))).toBe(true)
  }, 60_000)
})
