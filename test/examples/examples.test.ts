/**
 * The buyer examples of examples/ run as a newcomer runs them — plain `node` (and bash with curl), from
 * the repository's root after `npm install` — against the development server started as its own
 * process. Each must pay and print the paid answer and the seller's receipt.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { privateKeyToAccount } from 'viem/accounts'
import { startServer, type StartedServer } from '../../support/server'
import { freePort } from '../../support/ports'

const ROOT = new URL('../..', import.meta.url).pathname
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const // anvil's second account: a documented test key
let server: StartedServer

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'error' })
})
afterAll(() => server?.stop())

async function run(command: string[], env: Record<string, string> = {}) {
  const { BUYER_PRIVATE_KEY: _, ...rest } = process.env
  const proc = Bun.spawn(command, { cwd: ROOT, env: { ...rest, ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { out, err, code }
}

const receiptIn = (err: string) => JSON.parse(/receipt: (\{.*\})/.exec(err)![1]!)

test('node examples/pay.mjs: without a key it says it makes a throwaway one, pays the default route and prints answer and receipt', async () => {
  const r = await run(['node', 'examples/pay.mjs', `${server.url}/v1/market-data/flights/summary?destination=Tokyo`])
  expect(r).toMatchObject({ code: 0 })
  expect(r.err).toContain('No BUYER_PRIVATE_KEY: paying with a throwaway key')
  const body = JSON.parse(r.out)
  expect([body.success, body.data.destination, body.pricing]).toEqual([true, 'Tokyo', { amount_usd: '0.10', payment_status: 'paid' }])
  expect(receiptIn(r.err)).toMatchObject({ success: true, transaction: '', network: 'eip155:84532' })
}, 60_000)

test('node examples/pay.mjs with BUYER_PRIVATE_KEY pays with that wallet; a route the server refuses is an error exit', async () => {
  const url = `${server.url}/v1/china/trends?keyword=${encodeURIComponent('露营')}`
  const r = await run(['node', 'examples/pay.mjs', url], { BUYER_PRIVATE_KEY: KEY })
  expect(r).toMatchObject({ code: 0 })
  expect(r.err).not.toContain('throwaway')
  expect(JSON.parse(r.out).success).toBe(true)
  expect(receiptIn(r.err).payer).toBe(privateKeyToAccount(KEY).address)
  const unknown = await run(['node', 'examples/pay.mjs', `${server.url}/v1/market-data/flights/summary?destination=Atlantis`])
  expect(unknown.code).toBe(1)
  expect(unknown.err).toContain('404 not_found')
}, 60_000)

test('node examples/mcp-pay.mjs: on the 2026-07-28 revision, lists the tools, gets the price of a call, signs it and gets the paid result with its receipt', async () => {
  const r = await run(['node', 'examples/mcp-pay.mjs', server.url, 'spend_summary', '{"country":"日本"}'])
  expect(r).toMatchObject({ code: 0 })
  expect(r.err).toContain('MCP protocol revision 2026-07-28')
  expect(r.err).toContain('asked to pay 0.1 USDC on eip155:84532')
  const envelope = JSON.parse(r.out)
  expect([envelope.success, envelope.data.country, envelope.pricing.payment_status]).toEqual([true, 'Japan', 'paid'])
  expect(receiptIn(r.err)).toMatchObject({ success: true, transaction: '', network: 'eip155:84532' })
}, 60_000)

test('bash examples/curl.sh: 402 with PAYMENT-REQUIRED, signed by node, paid with PAYMENT-SIGNATURE, answered with PAYMENT-RESPONSE', async () => {
  const r = await run(['bash', 'examples/curl.sh', `${server.url}/v1/market-data/flights/summary?destination=Osaka`], {
    BUYER_PRIVATE_KEY: KEY,
  })
  expect(r).toMatchObject({ code: 0 })
  expect(r.err).toContain('402; PAYMENT-REQUIRED decodes to:')
  expect(r.out).toStartWith('HTTP/1.1 200 OK')
  const receipt = /^PAYMENT-RESPONSE: (\S+)/im.exec(r.out)![1]!
  expect(JSON.parse(Buffer.from(receipt, 'base64').toString())).toMatchObject({ success: true, payer: privateKeyToAccount(KEY).address })
  const body = JSON.parse(r.out.slice(r.out.indexOf('{"success"')))
  expect([body.success, body.data.destination]).toEqual([true, 'Osaka'])
}, 60_000)

test('node examples/pay.mjs with format=csv prints the paid table as CSV, and the receipt', async () => {
  const r = await run(['node', 'examples/pay.mjs', `${server.url}/v1/market-data/flights/trend?destination=Tokyo&format=csv`])
  expect(r).toMatchObject({ code: 0 })
  expect(r.out.split('\r\n')[0]).toStartWith('month,')
  expect(r.out.split('\r\n').length).toBeGreaterThan(3)
  expect(receiptIn(r.err)).toMatchObject({ success: true })
}, 60_000)

test('with no server at the address, each example says so in one line and exits 1', async () => {
  const closed = `http://127.0.0.1:${await freePort()}/v1/market-data/flights/summary?destination=Tokyo`
  for (const command of [
    ['node', 'examples/pay.mjs', closed],
    ['bash', 'examples/curl.sh', closed],
  ]) {
    const r = await run(command)
    expect({ command: command[1], code: r.code }).toEqual({ command: command[1], code: 1 })
    expect(r.err).toContain('Start it with: npm start')
    expect(r.err).not.toContain('    at ')
  }
}, 60_000)
