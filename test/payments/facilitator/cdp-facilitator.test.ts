import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { createAuthHeader } from '@coinbase/x402'
import { HTTPFacilitatorClient } from '@x402/core/http'
import { routeById } from '../../../src/catalog'
import { loadConfig } from '../../../src/config/config'
import { connectFacilitator } from '../../../src/payments/facilitator/facilitator-client'
import { FacilitatorSettler } from '../../../src/payments/facilitator/facilitator-settler'
import { usdToAtomic } from '../../../src/core/usdc'
import { authLines, ed25519Key, es256Key, jwtKeysEnv, secretFragments, type AuthLine } from '../../../support/cdp-keys'
import { anvilAccount, startChain, type Chain } from '../../../support/chain'
import { decodeProofHeader, recordingFetch, v2Client } from '../../../support/clients'
import { startFacilitator, type StartedFacilitator } from '../../../support/facilitator'
import { startServer, type StartedServer } from '../../../support/server'
import { buyForPrice, fundedAccount, moved, ONE_USDC } from '../../../support/chain-and-facilitator'
import { settlementInput } from '../../../support/settlement-input'
import { tempDir } from '../../../support/temp-dirs'

/**
 * Facilitator authentication with real parts: anvil as Base Sepolia with Circle's USDC contract, the
 * facilitator process of scripts/facilitator.ts demanding a fresh CDP-style JWT on every call
 * (FACILITATOR_JWT_KEYS: signature by the key's public key, `uris` = this method + host + path, time
 * claims, a nonce never seen before), the service in facilitator mode with throwaway CDP API keys, and
 * the unmodified `@x402/fetch` client. Money claims are checked on chain, claims on the ledger in SQLite.
 */

const SLOW = 60_000
const URL_PATH = '/v1/market-data/flights/summary?destination='
const PRICE = usdToAtomic(routeById.get('flights.summary')!.priceUsd)

const good = ed25519Key() // the service's key, registered with the facilitator
const ecdsa = es256Key() // an ES256 key as CDP issues it (SEC1 PEM), registered too
const wrong = { ...ed25519Key(), id: 'key-with-a-mis-copied-secret' } // the service's secret for this id...
const registered = ed25519Key(wrong.id) // ...is not the key the facilitator knows under it
const STATIC_TOKEN = `static-${crypto.randomUUID()}`

let chain: Chain
let jwtFacilitator: StartedFacilitator
let tokenFacilitator: StartedFacilitator
let cdpServer: StartedServer
let wrongServer: StartedServer
let staticServer: StartedServer
/** The wrong-secret service's ledger, read at the end for what it recorded. */
const wrongLedgerPath = join(tempDir('cdp-'), 'wrong-ledger.sqlite')
/** Everything the wrong-secret service answered, for the secret check at the end. */
const answers: string[] = []

beforeAll(async () => {
  chain = await startChain()
  ;[jwtFacilitator, tokenFacilitator] = await Promise.all([
    startFacilitator({
      rpcUrl: chain.rpcUrl,
      settler: anvilAccount(1),
      env: { FACILITATOR_JWT_KEYS: jwtKeysEnv(good, ecdsa, registered) },
    }),
    startFacilitator({ rpcUrl: chain.rpcUrl, settler: anvilAccount(2), env: { FACILITATOR_AUTH_TOKEN: STATIC_TOKEN } }),
  ])
  // CDP settings emptied where they are not wanted: a developer's own CDP keys must not leak in from the shell.
  // Logging at its widest (debug), for the secret check at the end.
  const base = {
    PAYMENT_MODE: 'facilitator',
    X402_RPC_URL: chain.rpcUrl,
    RECONCILE_SECONDS: '0',
    DATASETS_RELOAD_SECONDS: '0',
    LOG_LEVEL: 'debug',
    CDP_API_KEY_ID: '',
    CDP_API_KEY_SECRET: '',
  }
  ;[cdpServer, wrongServer, staticServer] = await Promise.all([
    startServer({ ...base, X402_FACILITATOR_URL: jwtFacilitator.url, CDP_API_KEY_ID: good.id, CDP_API_KEY_SECRET: good.secret }),
    startServer({
      ...base,
      X402_FACILITATOR_URL: jwtFacilitator.url,
      CDP_API_KEY_ID: wrong.id,
      CDP_API_KEY_SECRET: wrong.secret,
      LEDGER_PATH: wrongLedgerPath,
    }),
    startServer({
      ...base,
      X402_FACILITATOR_URL: tokenFacilitator.url,
      X402_FACILITATOR_HEADERS: JSON.stringify({ Authorization: `Bearer ${STATIC_TOKEN}` }),
    }),
  ])
}, SLOW)

afterAll(async () => {
  await Promise.all([cdpServer?.stop(), wrongServer?.stop(), staticServer?.stop()])
  await Promise.all([jwtFacilitator?.stop(), tokenFacilitator?.stop()])
  await chain?.stop()
})

/** The calls the JWT facilitator checked for one key id, optionally only those after `since` (an output length). */
const callsOf = (kid: string, since = 0): AuthLine[] => authLines(jwtFacilitator.output().slice(since)).filter((l) => l.kid === kid)

/** Waits for something a process logs on its own schedule (the start-up /supported call is not awaited). */
async function eventually(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await Bun.sleep(50)
  }
}

describe('CDP keys: a fresh signed token on every facilitator call', () => {
  test(
    'a paid request through the service moves the USDC once; supported, verify and settle each carried its own valid token',
    async () => {
      await eventually('the start-up /supported call', () => callsOf(good.id).some((c) => c.path === '/supported'))
      const since = jwtFacilitator.output().length
      const { res } = await buyForPrice(chain, `${cdpServer.url}${URL_PATH}Tokyo`, PRICE)
      const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString())
      expect((await chain.client.getTransactionReceipt({ hash: receipt.transaction })).status).toBe('success')

      const host = new URL(jwtFacilitator.url).host
      // This request: one verify, one settle, each with a token for exactly that call (the facilitator's
      // log reaches this process on its own schedule, after its answers).
      await eventually('the settle call in the log', () => callsOf(good.id, since).some((c) => c.path === '/settle'))
      expect(callsOf(good.id, since).map(({ ok, method, path, uri }) => ({ ok, method, path, uri }))).toEqual([
        { ok: true, method: 'POST', path: '/verify', uri: `POST ${host}/verify` },
        { ok: true, method: 'POST', path: '/settle', uri: `POST ${host}/settle` },
      ])
      // Over the service's life so far: nothing refused, start-up /supported included, no token used twice.
      const all = callsOf(good.id)
      expect(all.filter((c) => !c.ok)).toEqual([])
      expect(all.find((c) => c.path === '/supported')).toMatchObject({ ok: true, method: 'GET', uri: `GET ${host}/supported` })
      expect(new Set(all.map((c) => c.nonce)).size).toBe(all.length)
    },
    SLOW,
  )

  test(
    'an ES256 key as CDP issues it (SEC1 PEM): the facilitator client signs supported, verify and settle, and the USDC moves once',
    async () => {
      const config = loadConfig({
        PAYMENT_MODE: 'facilitator',
        X402_FACILITATOR_URL: jwtFacilitator.url,
        CDP_API_KEY_ID: ecdsa.id,
        CDP_API_KEY_SECRET: ecdsa.secret,
      })
      const { client, url, auth } = await connectFacilitator(config)
      expect({ url, auth }).toEqual({ url: jwtFacilitator.url, auth: `CDP facilitator auth, key id ${ecdsa.id} (ES256)` })
      const supported = await client.getSupported()
      expect(supported.kinds.some((k) => k.scheme === 'exact' && k.network === 'eip155:84532')).toBe(true)
      const settler = new FacilitatorSettler('facilitator', client)
      const payment = await settlementInput(chain, { funded: ONE_USDC })
      expect(await settler.verify(payment)).toEqual({ ok: true })
      expect(await settler.settle(payment)).toMatchObject({ status: 'settled', receipt: { success: true } })
      expect(await chain.balanceOf(payment.payer)).toBe(ONE_USDC - PRICE)
      await eventually('the settle call in the log', () => callsOf(ecdsa.id).some((c) => c.path === '/settle'))
      const calls = callsOf(ecdsa.id)
      expect(calls.map((c) => `${c.ok} ${c.method} ${c.path}`)).toEqual(['true GET /supported', 'true POST /verify', 'true POST /settle'])
      expect(new Set(calls.map((c) => c.nonce)).size).toBe(3)
    },
    SLOW,
  )
})

describe('credentials the facilitator refuses', () => {
  test(
    'a wrong secret: every call is refused; the buyer gets a 502, nothing moves on chain and the ledger claims nothing',
    async () => {
      await eventually('the wrong-key service reports the refused start-up /supported', () =>
        wrongServer.output().includes('facilitator refused this service'),
      )
      const buyer = await fundedAccount(chain)
      const rec = recordingFetch()
      const { result: res, delta } = await moved(chain, buyer.address, () =>
        v2Client(buyer, rec.fetch)(`${wrongServer.url}${URL_PATH}Paris`),
      )
      const body = await res.json()
      answers.push(JSON.stringify(body))
      expect({ status: res.status, body }).toMatchObject({
        status: 502,
        body: { success: false, error: { code: 'facilitator_unavailable', details: { reason: 'facilitator_auth_rejected (HTTP 401)' } } },
      })
      expect(body.data).toBeUndefined()
      expect(delta).toEqual({ payer: 0n, payTo: 0n })
      const nonce = decodeProofHeader(rec.exchanges.at(-1)!.proofs['payment-signature']!).payload.authorization.nonce as `0x${string}`
      expect(await chain.authorizationUsed(buyer.address, nonce)).toBe(false)

      // The ledger: the nonce was taken for the verify and given back (failed, free to buy with once the key is fixed).
      const db = new Database(wrongLedgerPath, { readonly: true })
      const payment = db.query(`SELECT key, state, settlement, tx_hash FROM payments WHERE nonce = ?`).get(nonce.toLowerCase()) as {
        key: string
      } & Record<string, unknown>
      const events = db.query(`SELECT event, detail FROM payment_events WHERE payment_key = ? ORDER BY seq`).all(payment.key)
      db.close()
      expect({ payment, events }).toMatchObject({
        payment: { state: 'failed', settlement: null, tx_hash: null },
        events: [{ event: 'failed', detail: 'verify: facilitator_auth_rejected' }],
      })

      // The facilitator saw tokens under this key id, refused each for its signature, and never settled.
      const calls = callsOf(wrong.id)
      expect(calls.length).toBeGreaterThanOrEqual(2) // start-up /supported, this verify
      expect(calls.every((c) => !c.ok && /signature verification failed/.test(c.reason!))).toBe(true)
      expect(calls.some((c) => c.path === '/settle')).toBe(false)
      for (const path of ['/ready', '/metrics', '/health']) answers.push(await (await fetch(`${wrongServer.url}${path}`)).text())
    },
    SLOW,
  )

  test(
    'a token replayed on settle is refused 401 after a good verify: a definite failure, marked unavailable, and nothing moves',
    async () => {
      const { host } = new URL(jwtFacilitator.url)
      const settleToken = await createAuthHeader(good.id, good.secret, 'POST', host, '/settle')
      // Spend the token first (the call is authenticated, then refused for its empty body).
      expect(
        (await fetch(`${jwtFacilitator.url}/settle`, { method: 'POST', headers: { authorization: settleToken }, body: '{}' })).status,
      ).toBe(400)
      const client = new HTTPFacilitatorClient({
        url: jwtFacilitator.url,
        createAuthHeaders: async () => ({
          verify: { Authorization: await createAuthHeader(good.id, good.secret, 'POST', host, '/verify') },
          settle: { Authorization: settleToken },
          supported: {},
        }),
      })
      const settler = new FacilitatorSettler('facilitator', client)
      const payment = await settlementInput(chain, { funded: ONE_USDC })
      expect(await settler.verify(payment)).toEqual({ ok: true })
      expect(await settler.settle(payment)).toEqual({ status: 'failed', reason: 'facilitator_auth_rejected (HTTP 401)', unavailable: true })
      expect(await chain.balanceOf(payment.payer)).toBe(ONE_USDC)
      expect(await chain.authorizationUsed(payment.payer, payment.nonce)).toBe(false)
      await eventually('the refused settle call in the log', () => callsOf(good.id).at(-1)?.path === '/settle')
      expect(callsOf(good.id).at(-1)).toMatchObject({ ok: false, path: '/settle', reason: 'replayed token (nonce already used)' })
    },
    SLOW,
  )
})

test(
  'static headers (X402_FACILITATOR_HEADERS) still authenticate as before: the paid request settles',
  async () => {
    expect((await fetch(`${tokenFacilitator.url}/supported`)).status).toBe(401) // the token really is required
    await buyForPrice(chain, `${staticServer.url}${URL_PATH}Seoul`, PRICE) // a 200, and exactly the price moved on chain
    expect(staticServer.output()).toContain(
      `verified and settled by the facilitator at ${tokenFacilitator.url} (facilitator mode; static headers Authorization)`,
    )
    expect(staticServer.output()).not.toContain(STATIC_TOKEN)
  },
  SLOW,
)

test('the secrets appear nowhere: banner, debug logs, error answers, /ready, /metrics', async () => {
  for (const path of ['/ready', '/metrics', '/health']) answers.push(await (await fetch(`${cdpServer.url}${path}`)).text())
  expect(cdpServer.output()).toContain(
    `verified and settled by the facilitator at ${jwtFacilitator.url} (facilitator mode; CDP facilitator auth, key id ${good.id} (EdDSA))`,
  )
  expect(wrongServer.output()).toContain('"level":"error","msg":"facilitator refused this service\'s credentials') // logs are in what is searched
  const seen = [cdpServer.output(), wrongServer.output(), ...answers].join('\n')
  for (const fragment of [...secretFragments(good.secret), ...secretFragments(wrong.secret)]) expect(seen).not.toContain(fragment)
})
