/**
 * Going live is visible: `providers check` asks each configured provider once per lane and says what
 * that means; the start-up banner names the live providers, the lanes and whether KOLs can be sold.
 * Against local servers answering as SearXNG, Bocha and TikHub do.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runCli } from '../../support/cli-run'
import { startServer } from '../../support/server'
import { loopback, type Loopback } from '../../support/loopback'
import { campingWorld, vendorWorld, type VendorWorld } from '../../support/vendor-world'

let world: VendorWorld
let html: Loopback
beforeAll(() => {
  world = vendorWorld(() => campingWorld(Date.now()), { tikhubPageSize: 30 })
  // A SearXNG whose JSON output is not enabled: its 403 page.
  html = loopback(
    () =>
      new Response('<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>', {
        status: 403,
        headers: { 'content-type': 'text/html' },
      }),
  )
})
afterAll(() => {
  world.stop()
  html.stop()
})

const check = (env: Record<string, string>, ...args: string[]) => runCli(['providers', 'check', ...args], env)

const searxng = (url: string) => ({ WEB_SEARCH_PROVIDER: 'searxng', WEB_SEARCH_URL: url })
const tikhub = () => ({ NATIVE_SEARCH_PROVIDER: 'tikhub', NATIVE_SEARCH_URL: world.url, NATIVE_SEARCH_KEY: 'th-secret-key' })

describe('providers check', () => {
  test('asks every provider once per lane; says how far back the dates reach and what that means; exit 0', async () => {
    const { out, code } = await check({ ...searxng(world.url), ...tikhub(), NATIVE_SEARCH_MAX_PAGES: '10' }, '--json')
    expect(code).toBe(0)
    const r = JSON.parse(out)
    expect(r.calls.map((c: any) => `${c.role} ${c.lane}`)).toEqual([
      'native xiaohongshu',
      'native douyin',
      'native wechat',
      'web xiaohongshu',
      'web douyin',
      'web wechat',
    ])
    const web = r.calls.find((c: any) => c.role === 'web')
    expect(web).toMatchObject({ ok: true, status: 'ok', with_author: 0, with_followers: 0, with_engagement: 0 })
    expect(web.reach_days).toBeLessThanOrEqual(7)
    expect(web.dropped.undated).toBe(4)
    const douyin = r.calls.find((c: any) => c.lane === 'douyin' && c.role === 'native')
    expect(douyin).toMatchObject({ ok: true, with_author: 100, with_engagement: 100 })
    expect(douyin.covered[0].covered_share).toBe(1)
    expect(
      r.meaning.some(
        (m: string) =>
          m.startsWith(`searxng (${new URL(world.url).host}) (web, xiaohongshu): its results reach back`) &&
          m.includes('says insufficient_evidence'),
      ),
    ).toBe(true)
    expect(r.meaning.some((m: string) => m.includes('4 results had no readable date'))).toBe(true)
    expect(out).not.toContain('th-secret-key')
  })

  test('the table for people, with a web-only setup: the KOL routes cannot be sold, and it says so', async () => {
    const { out, code } = await check(searxng(world.url))
    expect(code).toBe(0)
    expect(out).toMatch(/^provider +role +lane +status +ms +req +items +on topic +reach \(days\)/m)
    expect(out).toContain(
      'No native provider: web search gives no creators (authors, followers, engagement), so /v1/china/kols and /v1/kol/shortlist answer 422 native_provider_required.',
    )
  })

  test('a provider that answers something that is not its API: exit 1, naming it and the fix', async () => {
    const { out, err, code } = await check({ ...searxng(html.url), ...tikhub() })
    expect(code).toBe(1)
    expect(err).toContain(`Failing: searxng (${new URL(html.url).host})`)
    expect(out).toContain('JSON output is not enabled on this instance (add `json` to search.formats')
  })

  test('a SearXNG instance set up as the generic protocol: the failure and the setting that fixes it', async () => {
    const { out, code } = await check({ WEB_SEARCH_URL: `${html.url}/search` })
    expect(code).toBe(1)
    expect(out).toContain('WEB_SEARCH_URL looks like a SearXNG instance: set WEB_SEARCH_PROVIDER=searxng')
  })

  test('no live provider: nothing to check, said plainly', async () => {
    const { out, code } = await check({})
    expect(code).toBe(0)
    expect(out).toContain('No live provider is configured')
  })

  test('--json prints JSON in every case: no provider configured, and a configuration that does not load', async () => {
    const none = await check({}, '--json')
    expect(none.code).toBe(0)
    expect(JSON.parse(none.out)).toMatchObject({
      calls: [],
      model: null,
      meaning: [expect.stringContaining('No live provider is configured')],
    })
    const broken = await check({ LLM_BASE_URL: 'http://127.0.0.1:9/v1' }, '--json')
    expect(broken.code).toBe(2)
    expect(JSON.parse(broken.out)).toEqual({
      error: { code: 'configuration', setting: 'LLM_MODEL', message: expect.stringContaining('LLM_MODEL: is required') },
    })
  })
})

test('the start-up banner names the live providers, the lanes, and that KOLs cannot be sold without a native provider', async () => {
  const server = await startServer(searxng(world.url))
  try {
    const banner = server.output()
    expect(banner).toContain(
      `  evidence: LIVE providers: web searxng (${new URL(world.url).host}); native none; model none (extractive themes)`,
    )
    expect(banner).toContain(`  lanes:    xiaohongshu proxy_read: web searxng (${new URL(world.url).host});`)
    expect(banner).toContain('  KOLs:     NOT AVAILABLE: /v1/china/kols and /v1/kol/shortlist answer 422 native_provider_required')
  } finally {
    await server.stop()
  }
})
