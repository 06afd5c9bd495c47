/**
 * Two instances on one PostgreSQL ledger (LEDGER_URL) share live answers: the same request arriving at
 * both at once runs the providers once, and an answer computed on one is a hit on the other. A real
 * PostgreSQL cluster (Debian's binaries, started by the test helper), live providers answering as
 * TikHub does.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../../support/postgres'
import { requireTool } from '../../../support/required-tool'
import { until } from '../../../support/until'
import { gate } from '../../../support/loopback'
import { Client as Api } from '../../../support/paying-client'
import { campingWorld, vendorWorld, type VendorWorld } from '../../../support/vendor-world'

const FILE = 'test/intelligence/vendors/shared-cache.test.ts'
const hasPostgres = requireTool(
  FILE,
  postgresMissing(),
  ".ci/run installs Debian's postgresql package; the shared answer cache is tested against it",
)

if (hasPostgres) {
  let cluster: StartedPostgres
  let world: VendorWorld
  let a: Api
  let b: Api
  // The first search the providers get waits for this, so that the second instance's request arrives while the first computes.
  let hold = gate()
  beforeAll(async () => {
    cluster = await startPostgres()
    const held = vendorWorld(() => campingWorld(Date.now()), { tikhubPageSize: 30 })
    // In front of the world: requests wait while `hold` is closed.
    const proxy = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(req) {
        await hold.opened
        const url = new URL(req.url)
        return fetch(`${held.url}${url.pathname}${url.search}`, {
          method: req.method,
          headers: req.headers,
          body: req.method === 'POST' ? await req.text() : undefined,
        })
      },
    })
    world = {
      ...held,
      stop: () => {
        held.stop()
        proxy.stop(true)
      },
    }
    const env = {
      LEDGER_URL: cluster.url,
      NATIVE_SEARCH_PROVIDER: 'tikhub',
      NATIVE_SEARCH_URL: `http://127.0.0.1:${proxy.port}`,
      NATIVE_SEARCH_KEY: 'k',
      NATIVE_SEARCH_PLATFORMS: 'douyin',
    }
    a = await Api.start(env)
    b = await Api.start(env)
    await until('both instances connected to the ledger', async () =>
      (await (await b.rt.get('/ready')).json()).data?.ready ? true : undefined,
    )
  })
  afterAll(async () => {
    hold.open()
    a?.close()
    b?.close()
    world?.stop()
    await cluster?.destroy()
  })

  test('the same request at both instances at once: one provider run, one miss and one hit with the same answer', async () => {
    const q = { keyword: '露营', timeframe: '30d' }
    const first = a.paid('china.trends.douyin', q)
    // The first instance holds the key's lease while its providers are held.
    await until('the first instance leases the key', async () =>
      Number(await cluster.psql('SELECT count(*) FROM live_answers WHERE holder IS NOT NULL')) === 1 ? true : undefined,
    )
    const second = b.paid('china.trends.douyin', q)
    hold.open()
    const [x, y] = await Promise.all([first, second])
    expect([x.status, y.status]).toEqual([200, 200])
    expect([x.body.meta.cache_status, y.body.meta.cache_status]).toEqual(['miss', 'hit'])
    expect(y.body.data).toEqual(x.body.data)
    const searches = world.count('/douyin/search/fetch_video_search_v1')
    expect(searches).toBeGreaterThan(0)
    // Only the first instance's run reached the providers: one search per page of one run.
    expect(searches).toBe(x.body.data.data_quality.providers[0].requests)
  })

  test('an answer computed on one instance is a hit on the other, without asking the providers', async () => {
    hold = gate()
    hold.open()
    const q = { keyword: '露营', timeframe: '7d' }
    const x = await b.paid('china.trends.douyin', q)
    const before = world.requests.length
    const y = await a.paid('china.trends.douyin', q)
    expect([x.body.meta.cache_status, y.body.meta.cache_status]).toEqual(['miss', 'hit'])
    expect(world.requests.length).toBe(before)
  })
}
