import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { x402Client } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import type { PrivateKeyAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { startFlakyRpc, type FlakyRpc, type RpcBehaviour } from '../../support/flaky-rpc'
import { startServer, type StartedServer } from '../../support/server'
import { recordingFetch, v1Client, v2Client } from '../../support/clients'
import { keyOf, startFacilitator, type StartedFacilitator } from '../../support/facilitator'
import { facilitatorModeEnv, fundedAccount, ONE_USDC } from '../../support/chain-and-facilitator'
import { until } from '../../support/until'

/**
 * The chain's RPC misbehaves as hosted RPCs do — refuses connections, hangs, answers an error page — while
 * buyers pay with x402 v1 (x402-fetch), v2 (@x402/fetch) and MCP. In self mode (verification in process)
 * and facilitator mode (scripts/facilitator.ts over the same RPC): the service stays up, answers a clear
 * envelope, charges nothing, and the proof still buys the answer once the RPC is back. The RPC's URL
 * carries a key in its path, as hosted RPCs do: it appears in nothing the service prints, stores or answers.
 */

const SLOW = 120_000
const ROOT = resolve(import.meta.dir, '../..')
const ROUTE = '/v1/market-data/flights/months'
const PRICE = 30_000n
const FAILURES: RpcBehaviour[] = ['refused', 'hangs', 'garbage']
const METRICS_TOKEN = 'metrics-token-for-the-outage-test'

let chain: Chain
let rpc: FlakyRpc
let folder: string
/** Everything a buyer or an operator could read, to look for the key in. */
const seen: string[] = []

beforeAll(async () => {
  chain = await startChain()
  rpc = await startFlakyRpc(chain.rpcUrl)
  folder = mkdtempSync(join(tmpdir(), 'rpc-outage-'))
}, SLOW)

afterAll(async () => {
  await rpc?.stop()
  await chain?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

async function record(response: Response): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const text = await response.text()
  const headers: string[] = []
  response.headers.forEach((value, name) => headers.push(`${name}: ${value}`))
  seen.push(text, ...headers)
  return { status: response.status, body: JSON.parse(text), retryAfter: response.headers.get('retry-after') }
}

/** An MCP tool call paid with a v2 PaymentPayload in `_meta["x402/payment"]`, as examples/mcp-pay.mjs does. */
async function mcpPaid(url: string, account: PrivateKeyAccount): Promise<any> {
  const payer = new x402Client()
  registerExactEvmScheme(payer, { signer: account })
  const client = new Client({ name: 'outage-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)))
  try {
    const unpaid = (await client.callTool({ name: 'flights_months', arguments: {} })) as any
    const payment = await payer.createPaymentPayload(unpaid.structuredContent)
    const paid = (await client.callTool({ name: 'flights_months', arguments: {}, _meta: { 'x402/payment': payment } })) as any
    seen.push(JSON.stringify(paid))
    return paid
  } finally {
    await client.close()
  }
}

/**
 * The RPC fails as `failure` while a buyer pays with x402 v1, v2 and MCP, and `meanwhile` looks at the
 * service (still during the outage); then the RPC is up again.
 */
async function payDuring<T = undefined>(failure: RpcBehaviour, url: string, buyer: PrivateKeyAccount, meanwhile?: () => Promise<T>) {
  await rpc.set(failure)
  try {
    const http = []
    for (const pay of [v1Client(buyer, recordingFetch().fetch), v2Client(buyer, recordingFetch().fetch)])
      http.push(await record(await pay(url + ROUTE)))
    const tool = await mcpPaid(url, buyer)
    return { http, tool, seen: await meanwhile?.() }
  } finally {
    await rpc.set('up')
  }
}

/** What the operator reads: /ready, /metrics, the log, the ledger file, and doctor's report. */
async function operatorViews(server: StartedServer, env: Record<string, string>): Promise<void> {
  // The operator's /ready (with the token): its details name the chain's failure.
  seen.push(await (await fetch(`${server.url}/ready`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text())
  seen.push(await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text())
  seen.push(server.output())
  for (const file of readdirSync(folder)) seen.push(readFileSync(join(folder, file)).toString('latin1'))
  const doctor = Bun.spawnSync([process.execPath, resolve(ROOT, 'src/index.ts'), 'doctor', '--json', '--no-provider-calls'], {
    cwd: ROOT,
    env: { ...process.env, LEDGER_PATH: ':memory:', NODE_ENV: 'test', ...env },
  })
  seen.push(doctor.stdout.toString(), doctor.stderr.toString())
}

describe('self mode', () => {
  let server: StartedServer
  const env = () => ({
    PAYMENT_MODE: 'self',
    X402_RPC_URL: rpc.url,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    X402_FACILITATOR_TIMEOUT_SECONDS: '2',
    X402_FACILITATOR_OUTAGE_SECONDS: '1',
    RECONCILE_SECONDS: '0',
    METRICS_TOKEN,
    LOG_LEVEL: 'info',
  })

  beforeAll(async () => {
    server = await startServer({ ...env(), LEDGER_PATH: join(folder, 'self.sqlite') })
  }, SLOW)
  afterAll(async () => {
    await server?.stop()
  })

  for (const failure of FAILURES)
    test(
      `an RPC that ${failure === 'refused' ? 'refuses connections' : failure === 'hangs' ? 'hangs' : 'answers an error page'}: v1, v2 and MCP payments get 503 settlement_unavailable with Retry-After, nothing is charged, the process stays up`,
      async () => {
        const buyer = await fundedAccount(chain)
        // /ready says so once the outage has lasted X402_FACILITATOR_OUTAGE_SECONDS.
        const readyDuring = () =>
          until<any>('/ready to report the RPC outage', async () => {
            const r = await fetch(`${server.url}/ready`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
            return r.status === 503 ? ((await r.json()) as any) : undefined
          })
        const { http, tool, seen: ready } = await payDuring(failure, server.url, buyer, readyDuring)
        for (const answer of http) {
          expect(answer.status).toBe(503)
          expect(answer.body.error.code).toBe('settlement_unavailable')
          expect(Number(answer.retryAfter)).toBeGreaterThan(0)
          expect(answer.body.meta.request_id).toMatch(/^req_/)
        }
        expect(tool.isError).toBe(true)
        expect(JSON.parse(tool.content[0].text).error.code).toBe('settlement_unavailable')
        expect(ready.error.code).toBe('settlement_unavailable')
        expect(ready.error.details.chain.reachable).toBe(false)
        expect(server.proc.exitCode).toBeNull()
        expect((await fetch(`${server.url}/health`)).status).toBe(200)
        expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC)
      },
      SLOW,
    )

  test(
    'the proof refused during the outage buys the answer once the RPC is back, and is charged once',
    async () => {
      const buyer = await fundedAccount(chain)
      const recorder = recordingFetch()
      await rpc.set('refused')
      const during = await record(await v2Client(buyer, recorder.fetch)(server.url + ROUTE))
      expect(during.status).toBe(503)
      const proof = recorder.exchanges.find((e) => e.proofs['payment-signature'])!.proofs['payment-signature']!
      await rpc.set('up')
      const before = await chain.balanceOf(DEV_PAY_TO)
      const after = await record(await fetch(server.url + ROUTE, { headers: { 'payment-signature': proof } }))
      expect(after.status).toBe(200)
      expect(after.body.pricing.payment_status).toBe('paid')
      const again = await record(await fetch(server.url + ROUTE, { headers: { 'payment-signature': proof } }))
      expect(again.status).toBe(200)
      expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - PRICE)
      expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE)
      await until('/ready to answer 200 again', async () => ((await fetch(`${server.url}/ready`)).status === 200 ? true : undefined))
    },
    SLOW,
  )

  test(
    "the RPC's key is in nothing a buyer or an operator reads: answers, headers, log, /ready, /metrics, the ledger file, doctor",
    async () => {
      await rpc.set('refused')
      try {
        await operatorViews(server, env())
      } finally {
        await rpc.set('up')
      }
      const everything = seen.join('\n')
      expect(everything).toContain('settlement_unavailable') // the failing run was recorded
      expect(everything).toContain('127.0.0.1') // the RPC is named, by its origin
      expect(everything).not.toContain(rpc.key)
    },
    SLOW,
  )
})

describe('facilitator mode', () => {
  let facilitator: StartedFacilitator
  let server: StartedServer

  beforeAll(async () => {
    facilitator = await startFacilitator({ rpcUrl: rpc.url, settler: anvilAccount(3) })
    server = await startServer({
      ...facilitatorModeEnv(facilitator.url, rpc.url),
      X402_FACILITATOR_TIMEOUT_SECONDS: '5',
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
    })
  }, SLOW)
  afterAll(async () => {
    await server?.stop()
    await facilitator?.stop()
  })

  for (const failure of FAILURES)
    test(
      `the facilitator's RPC ${failure}: v1, v2 and MCP payments get 502 facilitator_unavailable, nothing is charged, both processes stay up`,
      async () => {
        const buyer = await fundedAccount(chain)
        const { http, tool } = await payDuring(failure, server.url, buyer)
        for (const answer of http) expect([answer.status, answer.body.error.code]).toEqual([502, 'facilitator_unavailable'])
        expect(JSON.parse(tool.content[0].text).error.code).toBe('facilitator_unavailable')
        expect(server.proc.exitCode).toBeNull()
        expect((await fetch(`${facilitator.url}/supported`)).status).toBe(200)
        expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC)
        seen.push(server.output())
        expect(seen.join('\n')).not.toContain(rpc.key)
      },
      SLOW,
    )
})
