/**
 * Issue 49, part 1: no configured secret leaves the process, whatever the other side echoes back. Every part
 * the service talks to is played by one loopback server that echoes everything it was sent — the URL with
 * its path and query, every header, the body — in its error answers (JSON, HTML, plain text) and, where it
 * answers, inside the results themselves. The real service runs as its own process; the test then reads
 * every way out: the buyer's answers and errors, the stored result, /ready, /console (page and JSON),
 * /metrics, the log and the banner, and the CLI's `doctor --json`, `providers check --json` and a failed
 * start. Each output is searched for every secret, as given, URL-encoded and JSON-escaped, and for any
 * 12 characters of one (a summary cut through a key is a leak too).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until, waitFor } from '../../support/until'
import { usdToAtomic } from '../../src/core/usdc'
import { freePort } from '../../support/ports'
import { json, loopback, type Loopback } from '../../support/loopback'
import { createPayer } from '../../support/payer'
import { route } from '../../support/paying-client'
import { routeUrl } from '../../support/route-url'
import { runCli } from '../../support/cli-run'
import { startServer, type StartedServer } from '../../support/server'

/** Secrets shaped as vendors issue them; each is at least 16 characters, so a 12-character window is specific. */
const S = {
  nativeKey: 'nk_live_7Qx2Lm9Vb4Tz8Rw1',
  nativeQuery: 'q5ecretNat1veQ9y2K',
  webKey: 'wk-9Hd3Jf7Ks2Pl5Zx8',
  webPath: 'searxProxyT0ken4Mn7',
  llmKey: 'sk-llmKey0aB1cD2eF3gH4iJ5',
  llmPath: 'gw5ecretPathW6e8Rt',
  metricsToken: 'mt-Console8Tok3nXyZ0aa',
  facilitatorToken: 'fac-Bearer5ecret91Qw',
  facilitatorPath: 'facPathK3y0Lp2Mn4',
  rpcPath: 'rpcPathK3y7Gh2Jk9Lq',
  rpcQuery: 'rpcQuery5ecret3Vx',
  ledgerPassword: 'pgPassw0rd5ecret77',
  settlerKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
} as const

/** Every way a secret may come back, and any 12 characters of it, in any case (a key folded to lower case is still a key). */
function leaks(output: string): string[] {
  const text = output.toLowerCase()
  const found: string[] = []
  for (const [name, secret] of Object.entries(S)) {
    const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]
    for (let i = 0; i + 12 <= secret.length; i++) forms.push(secret.slice(i, i + 12))
    if (forms.some((form) => text.includes(form.toLowerCase()))) found.push(name)
  }
  return found
}

const DAY = 86_400_000
type Phase = 'refuse' | 'echo-in-results'
let phase: Phase = 'refuse'
let facilitator: 'refuse' | 'settle-500' = 'refuse'

/** What was sent, as an echoing server repeats it. */
function echo(req: Request, body: string): string {
  const lines: string[] = []
  req.headers.forEach((value, name) => lines.push(`${name}: ${value}`))
  return `${req.method} ${req.url}\n${lines.join('\n')}\n\n${body}`
}

/** Posts about 露营 whose text repeats the request, as a vendor that quotes the query would. */
const posts = (said: string) =>
  Array.from({ length: 12 }, (_, i) => ({
    id: `echo-${i}`,
    url: `https://example.org/post/${i}`,
    title: `露营 装备 ${i}`,
    text: `露营 周末露营推荐 ${said}`,
    published_at: new Date(Date.now() - (i % 10) * DAY - 60_000).toISOString(),
    author: `creator_${i % 4}`,
    author_followers: 20_000,
  }))

let world: Loopback
beforeAll(() => {
  world = loopback((req, url, body) => {
    const said = echo(req, body)
    const auth = req.headers.get('authorization') ?? ''
    const [, role] = url.pathname.split('/')
    if (role === 'native') {
      if (phase === 'refuse') return json({ error: { message: `invalid api key ${auth} for ${req.url}`, request: said } }, 401)
      return json({ results: posts(said) })
    }
    if (role === 'web') {
      if (phase === 'refuse')
        return new Response(`<html><head><title>403</title></head><body><h1>Forbidden</h1><pre>${said}</pre></body></html>`, {
          status: 403,
          headers: { 'content-type': 'text/html' },
        })
      return json({
        query: url.searchParams.get('q'),
        results: posts(said).map((p) => ({ url: p.url, title: p.title, content: p.text, publishedDate: p.published_at, engine: 'echo' })),
      })
    }
    if (role === 'llm')
      return json({ error: { message: `Incorrect API key provided: ${auth}`, type: 'invalid_request_error', echo: said } }, 401)
    if (role === 'fac') {
      if (url.pathname.endsWith('/supported'))
        return json({
          kinds: [
            { x402Version: 2, scheme: 'exact', network: 'eip155:84532' },
            { x402Version: 1, scheme: 'exact', network: 'base-sepolia' },
          ],
          extensions: [],
          signers: {},
        })
      if (url.pathname.endsWith('/verify')) {
        if (facilitator === 'refuse')
          return json({ isValid: false, invalidReason: `unauthorized ${auth} ${req.url}`, invalidMessage: said })
        return json({ isValid: true, payer: JSON.parse(body).paymentPayload.payload.authorization.from })
      }
      return new Response(`settle crashed on ${said}`, { status: 500 })
    }
    if (role === 'rpc') {
      const call = body ? JSON.parse(body) : { id: 1 }
      return json({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: `unauthorized: ${req.url} ${said}` } })
    }
    return new Response('no such role', { status: 404 })
  })
})
afterAll(() => world?.stop())

/** Live providers, each with a key and a URL carrying secrets in its path or query. */
const providerEnv = (): Record<string, string> => ({
  NATIVE_SEARCH_URL: `${world.url}/native/{platform}?apikey=${S.nativeQuery}`,
  NATIVE_SEARCH_KEY: S.nativeKey,
  WEB_SEARCH_PROVIDER: 'searxng',
  WEB_SEARCH_URL: `${world.url}/web/${S.webPath}`,
  WEB_SEARCH_KEY: S.webKey,
  LLM_BASE_URL: `${world.url}/llm/${S.llmPath}/v1`,
  LLM_API_KEY: S.llmKey,
  LLM_MODEL: 'echo-model',
  METRICS_TOKEN: S.metricsToken,
  INTELLIGENCE_CACHE_TTL_SECONDS: '0',
  LOG_LEVEL: 'info',
})

const payer = createPayer()
const paidGet = async (base: string, id: string, query: Record<string, string>) => {
  const proof = await payer.proof({ value: usdToAtomic(route(id).priceUsd) })
  const res = await fetch(`${base}${routeUrl(id, query)}`, { headers: { 'x402-payment': proof } })
  return { status: res.status, text: await res.text() }
}

/** Everything a seller, a buyer or a scraper can read of a running service. */
async function readable(server: StartedServer): Promise<Record<string, string>> {
  const get = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${server.url}${path}`, { headers })).text()
  const bearer = { authorization: `Bearer ${S.metricsToken}` }
  return {
    ready: await get('/ready'),
    readyWithToken: await get('/ready', bearer),
    consoleJson: await get('/console', { ...bearer, accept: 'application/json' }),
    consolePage: await get('/console', { ...bearer, accept: 'text/html' }),
    metrics: await get('/metrics', bearer),
  }
}

describe('a provider that echoes its key and URL', () => {
  let server: StartedServer
  beforeAll(async () => {
    phase = 'refuse'
    server = await startServer(providerEnv())
  }, 60_000)
  afterAll(() => server?.stop())

  test("the buyer's free 502, /ready, /console and /metrics quote the vendors without a secret", async () => {
    const refused = await paidGet(server.url, 'china.trends', { keyword: '露营' })
    expect(refused.status).toBe(502)
    const body = JSON.parse(refused.text)
    expect(body.error.code).toBe('provider_unavailable')
    // The vendors' own words are still there to act on, summarised: the status and what they said.
    const errors = body.error.details.providers.map((p: { error: string }) => p.error).join('\n')
    expect(errors).toContain('HTTP 401')
    expect(errors).toContain('invalid api key Bearer [redacted]')
    expect(errors).toContain('HTTP 403')
    expect(leaks(refused.text)).toEqual([])

    const out = await readable(server)
    expect(out.readyWithToken).toContain('HTTP 401') // the last calls are there, with their errors
    for (const [name, text] of Object.entries(out)) expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] })
  })

  test('a paid answer whose results echo the request, and whose model call failed, is sold and stored without a secret', async () => {
    phase = 'echo-in-results'
    const answered = await paidGet(server.url, 'china.trends', { keyword: '露营' })
    expect(answered.status).toBe(200)
    const data = JSON.parse(answered.text)
    // The model's failure is reported in the answer, with the vendor's words but not its key.
    expect(answered.text).toContain('Incorrect API key provided: Bearer [redacted]')
    expect(answered.text).toContain('[redacted]') // the echoed key inside the results was found and taken out
    expect(leaks(answered.text)).toEqual([])
    const stored = await (await fetch(`${server.url}${data.meta.artifact_path}`)).text()
    expect(stored.length).toBeGreaterThan(1000)
    expect(leaks(stored)).toEqual([])

    const csv = await paidGet(server.url, 'china.trends', { keyword: '露营', format: 'csv' }).catch(() => null)
    if (csv && csv.status === 200) expect(leaks(csv.text)).toEqual([])

    const out = await readable(server)
    for (const [name, text] of Object.entries(out)) expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] })
  })

  test('the banner and every log line hold no secret', () => {
    const log = server.output()
    expect(log).toContain('provider') // the log did record the providers' calls
    expect(leaks(log)).toEqual([])
  })

  test('`providers check --json` and `doctor --json` report the failures without a secret', async () => {
    phase = 'refuse'
    const check = await runCli(['providers', 'check', '--json', '--keyword', '露营'], providerEnv())
    expect(check.out).toContain('HTTP 401')
    expect(leaks(check.out + check.err)).toEqual([])

    const doctor = await runCli(['doctor', '--json'], {
      ...providerEnv(),
      PAYMENT_MODE: 'self',
      X402_RPC_URL: `${world.url}/rpc/${S.rpcPath}?key=${S.rpcQuery}`,
      X402_SETTLER_PRIVATE_KEY: S.settlerKey,
      LEDGER_URL: `postgres://ledger:${S.ledgerPassword}@127.0.0.1:${await freePort()}/ledger?password=${S.ledgerPassword}&sslmode=disable`,
    })
    expect(doctor.out).toContain('"block"') // the RPC and the ledger fail, and say so
    expect(leaks(doctor.out + doctor.err)).toEqual([])
  })

  test('a service whose shared ledger is down prints, logs and answers no password', async () => {
    const port = await freePort()
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../../src/index.ts'), 'serve'], {
      env: {
        ...process.env,
        ...providerEnv(),
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        LEDGER_URL: `postgres://ledger:${S.ledgerPassword}@127.0.0.1:${await freePort()}/ledger?password=${S.ledgerPassword}`,
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    let out = ''
    for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[])
      void (async () => {
        for await (const chunk of stream) out += new TextDecoder().decode(chunk)
      })()
    try {
      await waitFor(
        'the banner and the ledger failure',
        () => out.includes('  ledger:  PostgreSQL') && out.includes('shared ledger unreachable'),
      )
      const paid = await paidGet(`http://127.0.0.1:${port}`, 'flights.summary', { destination: 'Tokyo' })
      expect(JSON.parse(paid.text).error.code).toBe('ledger_unavailable')
      const ready = await (await fetch(`http://127.0.0.1:${port}/ready`, { headers: { authorization: `Bearer ${S.metricsToken}` } })).text()
      expect(leaks(paid.text + ready)).toEqual([])
    } finally {
      proc.kill()
      await proc.exited
    }
    expect(out).toContain('password=***')
    expect(leaks(out)).toEqual([])
  }, 60_000)
})

describe('a facilitator that echoes its token and URL', () => {
  let server: StartedServer
  const ledgerFile = join(mkdtempSync(join(tmpdir(), 'secrets-ledger-')), 'ledger.sqlite')
  beforeAll(async () => {
    server = await startServer({
      LEDGER_PATH: ledgerFile,
      PAYMENT_MODE: 'facilitator',
      X402_FACILITATOR_URL: `${world.url}/fac/${S.facilitatorPath}`,
      X402_FACILITATOR_HEADERS: JSON.stringify({ Authorization: `Bearer ${S.facilitatorToken}` }),
      METRICS_TOKEN: S.metricsToken,
      LOG_LEVEL: 'info',
    })
  }, 60_000)
  afterAll(() => server?.stop())

  test('its refusal reaches the buyer as a reason code and a summary, without the token or the path', async () => {
    facilitator = 'refuse'
    const refused = await paidGet(server.url, 'flights.summary', { destination: 'Tokyo' })
    expect(refused.status).toBe(402)
    const body = JSON.parse(refused.text)
    expect(body.error.code).toBe('payment_invalid')
    expect(body.error.details.reason).toBe('invalid') // free text is no reason code
    expect(leaks(refused.text)).toEqual([])
  })

  test('its 500 on settle reaches the buyer, the ledger, /ready and /console without the token or the path', async () => {
    facilitator = 'settle-500'
    const answered = await paidGet(server.url, 'flights.summary', { destination: 'Tokyo' })
    // An error page on settle says nothing of the transfer: the outcome is unknown, the answer waits.
    expect(answered.status).toBe(202)
    expect(leaks(answered.text)).toEqual([])
    const out = await readable(server)
    for (const [name, text] of Object.entries(out)) expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] })
    // The ledger keeps the reason redacted too, and `payments` prints it so.
    const detail = await until('the failed settlement in the ledger', async () => {
      const db = new Database(ledgerFile, { readonly: true })
      try {
        const rows = db.query("SELECT detail FROM payment_events WHERE detail LIKE '%HTTP 500%'").all() as { detail: string }[]
        return rows.length > 0 ? rows.map((r) => r.detail).join('\n') : undefined
      } finally {
        db.close()
      }
    })
    expect(leaks(detail)).toEqual([])
  })

  test('the banner names the facilitator by its origin, and no log line holds the token or the path', () => {
    const log = server.output()
    expect(log).toContain(`facilitator at ${world.url}/…`)
    expect(leaks(log)).toEqual([])
  })
})
