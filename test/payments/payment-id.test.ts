/**
 * x402's payment-identifier (coinbase/x402 specs/extensions/payment_identifier.md), tried as a buyer
 * would with x402's own packages: `@x402/fetch` 2.27.0 with an `onBeforePaymentCreation` hook that calls
 * `@x402/extensions`' `appendPaymentIdentifierToExtensions`. The same payload sent again gets the stored
 * answer and its receipt, charged once (one ledger row); another payload under the same id is refused
 * with 409 before anything is claimed. The ledger is a real file, read from a second connection.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import {
  appendPaymentIdentifierToExtensions,
  extractPaymentIdentifier,
  isPaymentIdentifierRequired,
  PAYMENT_IDENTIFIER,
  validatePaymentIdentifier,
} from '@x402/extensions/payment-identifier'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { decodeProofHeader, recordingFetch } from '../../support/clients'
import { MCP_HEADERS, rpcBody } from '../../support/mcp-messages'
import { BASE, testRuntime } from '../../support/runtime'

const dir = mkdtempSync(join(tmpdir(), 'cmi-payment-id-'))
const ledgerFile = join(dir, 'ledger.sqlite')
let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime({ LEDGER_PATH: ledgerFile })
})
afterAll(async () => {
  await rt.close()
  rmSync(dir, { recursive: true, force: true })
})

const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const account = privateKeyToAccount(generatePrivateKey())

/** A buyer on x402's own client whose every payment carries `id` (the helper's own id when none is given). */
function buyer(id?: string) {
  const recording = recordingFetch({
    base: ((input: RequestInfo | URL, init?: RequestInit) => rt.app.handle(new Request(input, init))) as typeof fetch,
  })
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: account })
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    if (paymentRequired.extensions) appendPaymentIdentifierToExtensions(paymentRequired.extensions, id)
  })
  return { pay: wrapFetchWithPayment(recording.fetch, client), recording }
}

/** The proof header of the buyer's last paid attempt. */
const lastProof = (recording: ReturnType<typeof recordingFetch>) =>
  recording.exchanges.findLast((e) => e.proofs['payment-signature'])!.proofs['payment-signature']!

/** The payment rows in the ledger file, by payer and id. */
function rowsOf(paymentId: string): { key: string; state: string }[] {
  const db = new Database(ledgerFile, { readonly: true })
  try {
    return db.query<{ key: string; state: string }, [string]>('SELECT key, state FROM payments WHERE payment_id = ?').all(paymentId)
  } finally {
    db.close()
  }
}

const resend = (proof: string, path = SUMMARY) => rt.get(path, { 'payment-signature': proof })

test('every 402 offers payment-identifier, optional, as the spec declares it (HTTP and MCP)', async () => {
  const required = decodePaymentRequiredHeader((await rt.get(SUMMARY)).headers.get('payment-required')!)
  const extension = required.extensions?.[PAYMENT_IDENTIFIER]
  expect(validatePaymentIdentifier(extension)).toEqual({ valid: true })
  expect(isPaymentIdentifierRequired(extension)).toBe(false)
  const mcp = await rt.app.handle(
    new Request(`${BASE}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: rpcBody('tools/call', { name: 'flights_summary', arguments: { destination: 'Tokyo' } }),
    }),
  )
  const tool = (await mcp.json()) as { result: { structuredContent: { extensions: Record<string, unknown> } } }
  expect(validatePaymentIdentifier(tool.result.structuredContent.extensions[PAYMENT_IDENTIFIER])).toEqual({ valid: true })
})

test('the same payload under its id, sent again: the stored answer with its receipt, one ledger row, charged once', async () => {
  const { pay, recording } = buyer()
  const first = await pay(`${BASE}${SUMMARY}`)
  expect(first.status).toBe(200)
  const proof = lastProof(recording)
  const id = extractPaymentIdentifier(decodeProofHeader(proof))!
  expect(id).toMatch(/^pay_[0-9a-f]{32}$/)
  const again = await resend(proof)
  expect(again.status).toBe(200)
  expect(await again.text()).toBe(await first.text())
  const receipt = decodePaymentResponseHeader(again.headers.get('payment-response')!)
  expect(receipt).toMatchObject({ success: true, payer: account.address })
  expect(rowsOf(id)).toEqual([{ key: expect.any(String), state: 'served' }])
})

test('another payload under an id already used: 409 payment_id_conflict, for the same request or another, nothing claimed', async () => {
  const id = `pay_${crypto.randomUUID().replaceAll('-', '')}`
  const first = buyer(id)
  expect((await first.pay(`${BASE}${SUMMARY}`)).status).toBe(200)
  const [served] = rowsOf(id)
  // The same buyer pays again under the same id: a new authorization (another nonce), so another payload.
  for (const path of [SUMMARY, '/v1/market-data/flights/summary?destination=Osaka']) {
    const second = buyer(id)
    const res = await second.pay(`${BASE}${path}`)
    expect(res.status).toBe(409)
    const body = (await res.json()) as { error: { code: string; details: { payment_id: string } }; meta: { request_id: string } }
    expect(body.error).toMatchObject({ code: 'payment_id_conflict', details: { payment_id: id } })
    expect(body.meta.request_id).toBeString()
    expect(res.headers.get('payment-response')).toBeNull()
  }
  // Still one row under the id, the first, served: the other payloads were never claimed.
  expect(rowsOf(id)).toEqual([served!])
})

test('a malformed id is refused as a malformed proof (402 payment_invalid, payment_id_invalid) before any claim', async () => {
  const { pay, recording } = buyer()
  expect((await pay(`${BASE}/v1/market-data/flights/summary?destination=Seoul`)).status).toBe(200)
  const payload = decodeProofHeader(lastProof(recording))
  payload.extensions[PAYMENT_IDENTIFIER].info.id = 'short id!'
  const res = await resend(Buffer.from(JSON.stringify(payload)).toString('base64'), '/v1/market-data/flights/summary?destination=Seoul')
  expect(res.status).toBe(402)
  expect(((await res.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('payment_id_invalid')
})
