/**
 * The seller's console on a running service with a ledger file (issue 37): it answers only to the
 * credential, exactly as an unknown path otherwise; its figures are `payments report`'s own; the sign-in
 * cookie and its rate limit; and /metrics with provider spend, margin and cache-served answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../support/cli-run'
import type { StartedServer } from '../../support/server'
import { payTraffic, startSeller, TOKEN } from './support'

let dir: string
let server: StartedServer
const bearer = { authorization: `Bearer ${TOKEN}` }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-'))
  server = await startSeller(dir, 45, 40)
  await payTraffic(server.url)
})
afterAll(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** A response as comparable: status, the headers that say what it is, and the body without its request id. */
async function shape(res: Response) {
  const text = (await res.text()).replaceAll(res.headers.get('x-request-id') ?? '\u0000', 'REQUEST_ID')
  return { status: res.status, type: res.headers.get('content-type'), vary: res.headers.get('vary'), body: text }
}

test('the start-up banner names the console and where to sign in with METRICS_TOKEN', () => {
  expect(server.output()).toContain(`  console: http://localhost:${server.port}/console (sign in at /console/sign-in with METRICS_TOKEN)`)
})

describe('without the credential, /console answers as a path that does not exist', () => {
  const asUnknown = async (headers: Record<string, string>, method = 'GET', path = '/console') => {
    const consoleAnswer = await shape(await fetch(`${server.url}${path}`, { method, headers }))
    const unknown = await shape(await fetch(`${server.url}${path}x`, { method, headers: { accept: headers.accept ?? '*/*' } }))
    expect(consoleAnswer).toEqual({ ...unknown, body: unknown.body.replaceAll(`${path}x`, path) })
    expect(consoleAnswer.status).toBe(404)
  }
  test('no credential, JSON or a browser', async () => {
    await asUnknown({ accept: 'application/json' })
    await asUnknown({ accept: 'text/html,application/xhtml+xml' })
  })
  test('a wrong bearer token, a forged or expired cookie, another method', async () => {
    await asUnknown({ accept: 'application/json', authorization: `Bearer ${TOKEN}x`, 'x-forwarded-for': '203.0.113.1' })
    await asUnknown({ accept: 'application/json', cookie: 'cmi_console=v1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
    await asUnknown({ accept: 'application/json', cookie: 'cmi_console=v1.1000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
    await asUnknown({ accept: 'application/json' }, 'POST')
  })
  test('/metrics without its bearer token too, to a browser as to a script', async () => {
    await asUnknown({ accept: 'text/html', authorization: `Bearer ${TOKEN}x`, 'x-forwarded-for': '203.0.113.1' }, 'GET', '/metrics')
    await asUnknown({ accept: 'application/json' }, 'GET', '/metrics')
  })
})

describe('the figures are those of payments report', () => {
  test('the JSON revenue is `payments report --by day --since <window> --json`, field for field', async () => {
    const res = await fetch(`${server.url}/console`, { headers: { ...bearer, accept: 'application/json' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const figures = (await res.json()).data
    const cli = await runCli(['payments', 'report', '--by', 'day', '--since', figures.window.days_from.slice(0, 10), '--json'], {
      LEDGER_PATH: join(dir, 'ledger.sqlite'),
    })
    expect(cli.code).toBe(0)
    expect(figures.report).toEqual(JSON.parse(cli.out))
    // The made-up history and the traffic just paid are both in: states, networks and routes.
    const t = figures.report.totals
    expect(t.served_count).toBeGreaterThan(1000)
    expect(t.settled_count + t.local_count).toBe(t.served_count)
    expect(t.local_count).toBe(5) // the 5 answers paid just now, in local mode
    expect(figures.payments.released_count).toBeGreaterThan(0)
    expect(figures.payments.settlement_failed_count).toBeGreaterThan(0)
    expect(figures.payments.pending_count).toBeGreaterThan(0)
    expect(figures.by_network.map((n: { name: string }) => n.name).sort()).toEqual(['base', 'base-sepolia', 'polygon', 'polygon-amoy'])
  })

  test('the day, hour, route and network series add up to the report totals', async () => {
    const figures = (await (await fetch(`${server.url}/console`, { headers: { ...bearer, accept: 'application/json' } })).json()).data
    const sum = (rows: { served_atomic: string }[]) => rows.reduce((t, r) => t + BigInt(r.served_atomic), 0n).toString()
    expect(figures.by_day).toHaveLength(30)
    expect(figures.by_hour).toHaveLength(48)
    for (const series of [figures.by_day, figures.by_route, figures.by_network])
      expect(sum(series)).toBe(figures.report.totals.served_atomic)
    const dayTotal = figures.by_day.reduce((n: number, d: { payers: number }) => Math.max(n, d.payers), 0)
    expect(dayTotal).toBeGreaterThan(1)
    expect(figures.buyers.repeat_payers).toBeGreaterThan(0)
    expect(figures.buyers.repeat_payers).toBeLessThanOrEqual(figures.buyers.payers)
    // Losing routes first: margins in ascending order.
    const margins = figures.margin.map((m: { margin_nano_usd: string }) => BigInt(m.margin_nano_usd))
    expect(margins).toEqual([...margins].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(figures.exposure.unsettled_count).toBe(figures.report.unsettled.length)
    expect(figures.health.ledger).toEqual({ backend: 'sqlite', writable: true })
    expect(figures.health.answer_times.find((a: { family: string }) => a.family === 'market data').requests).toBeGreaterThanOrEqual(3)
  })
})

describe('signing in with a browser', () => {
  const signIn = (token: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ token }).toString(),
    })

  test('the form, then the token: a session cookie (HttpOnly, SameSite=Strict, not Secure over http) that opens the page', async () => {
    const form = await fetch(`${server.url}/console/sign-in`)
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('name="token"')
    const res = await signIn(TOKEN)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/console')
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/^cmi_console=v1\.\d+\.[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=43200; HttpOnly; SameSite=Strict$/)
    expect(cookie).not.toContain(TOKEN)
    const page = await fetch(`${server.url}/console`, { headers: { cookie: cookie.split(';')[0]!, accept: 'text/html' } })
    expect(page.status).toBe(200)
    // No script at all: default-src 'none' and nothing that allows one back.
    expect(page.headers.get('content-security-policy')).toStartWith("default-src 'none';")
    expect(page.headers.get('content-security-policy')).not.toContain('script-src')
    const html = await page.text()
    expect(html).toContain('Seller console')
    expect(html).not.toContain(TOKEN)
    expect(html).not.toContain('<script')
    const out = await fetch(`${server.url}/console/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookie.split(';')[0]! },
    })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
  })

  test('five wrong tokens, then a refusal with Retry-After, even of the right one; the bearer header too, at that address only', async () => {
    const from = { 'x-forwarded-for': '203.0.113.20' }
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong-${i}`, from)).status).toBe(401)
    const refused = await signIn(TOKEN, from)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800)
    expect(refused.headers.get('set-cookie')).toBeNull()
    // The guesser's address is refused whatever it sends; a script at another address still reads the console.
    expect((await fetch(`${server.url}/console`, { headers: { ...bearer, ...from } })).status).toBe(404)
    expect((await fetch(`${server.url}/console`, { headers: { ...bearer, 'x-forwarded-for': '203.0.113.21' } })).status).toBe(200)
  })

  test('a form posted from another site is refused and spends no try; it cannot sign the seller out either', async () => {
    const from = { 'x-forwarded-for': '203.0.113.30' }
    const sites: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }]
    for (const site of sites)
      for (let i = 0; i < 3; i++) {
        const res = await signIn(`wrong-${i}`, { ...from, ...site })
        expect(res.status).toBe(403)
        expect(await res.text()).toContain('sent from another site')
      }
    // Nine cross-site posts later, the seller at that address signs in at the first try.
    const own = await signIn(TOKEN, { ...from, origin: server.url, 'sec-fetch-site': 'same-origin' })
    expect(own.status).toBe(303)
    const cookie = own.headers.get('set-cookie')!.split(';')[0]!
    const out = await fetch(`${server.url}/console/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: 'https://evil.example', ...from },
    })
    expect(out.status).toBe(403)
    expect(out.headers.get('set-cookie')).toBeNull()
  })
})

test('a bearer brute force on /metrics: 5,000 guesses from one address end in its refusal; a scraper elsewhere reads on', async () => {
  const guesser = { 'x-forwarded-for': '198.51.100.66' }
  let answered = 0
  for (let i = 0; i < 5_000; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        fetch(`${server.url}/metrics`, { headers: { ...guesser, authorization: `Bearer guess-${i + j}` } }),
      ),
    )
    answered += batch.filter((r) => r.status === 200).length
  }
  expect(answered).toBe(0)
  // The right token from the guesser's address: as unknown as a wrong one. From the scraper's: the metrics.
  expect((await fetch(`${server.url}/metrics`, { headers: { ...bearer, ...guesser } })).status).toBe(404)
  const scraped = await fetch(`${server.url}/metrics`, { headers: { ...bearer, 'x-forwarded-for': '198.51.100.99' } })
  expect(scraped.status).toBe(200)
  expect(await scraped.text()).toContain('# TYPE http_requests_total')
})

test('/metrics: provider spend, margin and paid answers by cache, with the token', async () => {
  const text = await (await fetch(`${server.url}/metrics`, { headers: bearer })).text()
  for (const name of [
    'provider_spend_usd_total',
    'provider_requests_total',
    'x402_margin_usd',
    'x402_paid_answers_total',
    'provider_calls_total',
  ])
    expect(text).toContain(`# TYPE ${name} `)
  expect(text).toMatch(/x402_paid_answers_total\{route="flights.summary",cache="miss"\} 2/)
  expect(text).toMatch(/x402_margin_usd\{route="flights.summary"\} 0.2\b/)
})
