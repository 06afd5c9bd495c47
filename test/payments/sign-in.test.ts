/**
 * x402's sign-in-with-x (coinbase/x402 specs/extensions/sign-in-with-x.md), tried as a buyer would with
 * x402's own packages: a wallet pays with `@x402/fetch` 2.27.0, then `@x402/extensions`'
 * `wrapFetchWithSIWx` signs the 402's challenge and gets the stored answer again, free: no payment, no
 * new payment row. Another wallet, another request, a used challenge, an old one, another origin or a
 * forged signature is refused with 402 sign_in_refused, its reason in details. The ledger is a real
 * file, read from a second connection.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, wrapFetchWithSIWx } from '@x402/extensions/sign-in-with-x'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { v2Client } from '../../support/clients'
import { BASE, testRuntime } from '../../support/runtime'

const dir = mkdtempSync(join(tmpdir(), 'cmi-sign-in-'))
const ledgerFile = join(dir, 'ledger.sqlite')
let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime({ LEDGER_PATH: ledgerFile, PUBLIC_BASE_URL: BASE })
})
afterAll(async () => {
  await rt.close()
  rmSync(dir, { recursive: true, force: true })
})

const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const buyer = privateKeyToAccount(generatePrivateKey())
const inProcess = ((input: RequestInfo | URL, init?: RequestInit) => rt.app.handle(new Request(input, init))) as typeof fetch

/** A fetch that keeps the sign-in headers it sent. */
function signingIn(account = buyer) {
  const sent: string[] = []
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const header = request.headers.get(SIGN_IN_WITH_X)
    if (header) sent.push(header)
    return inProcess(request)
  }) as typeof fetch
  return { fetch: wrapFetchWithSIWx(recording, account), sent }
}

const paymentRows = (): number => {
  const db = new Database(ledgerFile, { readonly: true })
  try {
    return db.query<{ n: number }, []>('SELECT count(*) AS n FROM payments').get()!.n
  } finally {
    db.close()
  }
}

/** The refusal's reason, once its 402 says sign_in_refused. */
async function refusedFor(res: Response): Promise<string> {
  expect(res.status).toBe(402)
  const body = (await res.json()) as { error: { code: string; details: { reason: string } } }
  expect(body.error.code).toBe('sign_in_refused')
  expect(res.headers.get('payment-required')).toBeString() // the buyer may pay instead
  return body.error.details.reason
}

/** The challenge of a 402 of `path`. */
async function challengeOf(path: string) {
  const required = decodePaymentRequiredHeader((await rt.get(path)).headers.get('payment-required')!)
  return required.extensions![SIGN_IN_WITH_X] as { info: Record<string, any>; supportedChains: { chainId: string; type: string }[] }
}

let paidBody: string
beforeAll(async () => {
  const paid = await v2Client(buyer, inProcess)(`${BASE}${SUMMARY}`)
  expect(paid.status).toBe(200)
  paidBody = await paid.text()
})

test("each 402 carries a fresh challenge bound to PUBLIC_BASE_URL's origin, on the offered chains; the rest of the header is the same", async () => {
  const [one, two] = [await challengeOf(SUMMARY), await challengeOf(SUMMARY)] // the second from the remembered unpaid 402
  expect(one.info).toMatchObject({ domain: 'localhost:3000', uri: `${BASE}/v1/market-data/flights/summary`, version: '1' })
  expect(one.info.nonce).toMatch(/^[0-9a-f]{32}$/)
  expect(two.info.nonce).not.toBe(one.info.nonce)
  expect(Date.parse(one.info.expirationTime) - Date.parse(one.info.issuedAt)).toBe(300_000)
  expect(one.supportedChains).toEqual([{ chainId: 'eip155:84532', type: 'eip191' }])
  const strip = (c: typeof one) => ({ ...c, info: { ...c.info, nonce: '', issuedAt: '', expirationTime: '' } })
  expect(strip(two)).toEqual(strip(one))
})

test('the wallet that paid signs in with wrapFetchWithSIWx: the same answer, free, with no new payment row; its challenge is then spent', async () => {
  const rows = paymentRows()
  const { fetch, sent } = signingIn()
  const res = await fetch(`${BASE}${SUMMARY}`)
  expect(res.status).toBe(200)
  expect(await res.text()).toBe(paidBody)
  expect(res.headers.get('x-payment-replay')).toBe('signed-in')
  expect(res.headers.get('payment-response')).toBeNull()
  expect(paymentRows()).toBe(rows)
  expect(sent).toHaveLength(1)
  // The same signed header again: its nonce was used.
  expect(await refusedFor(await rt.get(SUMMARY, { [SIGN_IN_WITH_X]: sent[0]! }))).toBe('nonce_used')
  // A second sign-in over a new challenge works again, for the same request however its query is written.
  expect((await signingIn().fetch(`${BASE}${SUMMARY}`)).status).toBe(200)
  const normalised = await signingIn().fetch(`${BASE}/v1/market-data/flights/summary?destination=tokyo`)
  expect(normalised.status).toBe(200)
  expect(await normalised.text()).toBe(paidBody)
})

test('another wallet, or the same wallet for another request (other parameters), is refused: not_bought', async () => {
  const other = signingIn(privateKeyToAccount(generatePrivateKey()))
  expect(await refusedFor(await other.fetch(`${BASE}${SUMMARY}`))).toBe('not_bought')
  const osaka = signingIn()
  expect(await refusedFor(await osaka.fetch(`${BASE}/v1/market-data/flights/summary?destination=Osaka`))).toBe('not_bought')
  const months = signingIn()
  expect(await refusedFor(await months.fetch(`${BASE}/v1/market-data/flights/months`))).toBe('not_bought')
})

test('an old challenge, another origin, another chain, a forged signature or junk is refused, each with its reason', async () => {
  const info = (await challengeOf(SUMMARY)).info
  const signed = async (changes: Record<string, unknown>, origin = BASE) =>
    encodeSIWxHeader(await createSIWxPayload({ ...info, chainId: 'eip155:84532', type: 'eip191', ...changes } as never, buyer, origin))
  const old = new Date(Date.now() - 600_000).toISOString()
  const send = async (header: string) => refusedFor(await rt.get(SUMMARY, { [SIGN_IN_WITH_X]: header }))
  expect(await send(await signed({ issuedAt: old, expirationTime: undefined }))).toBe('expired')
  expect(await send(await signed({ domain: 'evil.example', uri: 'https://evil.example/x' }, 'https://evil.example'))).toBe('wrong_origin')
  expect(await send(await signed({ chainId: 'eip155:1' }))).toBe('wrong_chain')
  const forged = JSON.parse(Buffer.from(await signed({}), 'base64').toString())
  forged.signature = await buyer.signMessage({ message: 'something else' })
  expect(await send(Buffer.from(JSON.stringify(forged)).toString('base64'))).toBe('bad_signature')
  expect(await send('not base64 json')).toBe('malformed')
  expect(await send('A'.repeat(5000))).toBe('malformed')
})
