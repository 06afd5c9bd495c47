#!/usr/bin/env node
/**
 * Pays for one tool call of the API's MCP server (`/mcp`, Streamable HTTP) with the x402 MCP transport,
 * from the official 2.4.0 client speaking MCP's 2026-07-28 revision (no handshake: it discovers the
 * server, then every request carries its revision; SDK 1.x clients on the 2025 revisions work the same):
 * the unpaid call answers an error result carrying the x402 v2 PaymentRequired; the client signs one of
 * its `accepts` with `@x402/core`'s client and the exact EVM scheme of `@x402/evm`, and calls again
 * with the PaymentPayload in `_meta["x402/payment"]`; the result carries the receipt in
 * `_meta["x402/payment-response"]`.
 *
 *   node examples/mcp-pay.mjs [server-url] [tool] [arguments-json]
 *
 * Defaults: http://localhost:3000, flights_summary, {"destination":"东京"}. The wallet is
 * BUYER_PRIVATE_KEY, or a throwaway key (see buyer-key.mjs).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { x402Client } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { buyerAccount } from './buyer-key.mjs'

const server = process.argv[2] ?? 'http://localhost:3000'
const name = process.argv[3] ?? 'flights_summary'
const args = JSON.parse(process.argv[4] ?? '{"destination":"东京"}')

const payer = new x402Client()
registerExactEvmScheme(payer, { signer: buyerAccount() })

const client = new Client({ name: 'x402-mcp-example', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server)))
console.error(`MCP protocol revision ${client.getNegotiatedProtocolVersion()}`)
const { tools } = await client.listTools()
const tool = tools.find((t) => t.name === name)
if (!tool) throw new Error(`no tool ${name} (the server has ${tools.length})`)
console.error(`${tool.name}: ${tool.description?.split('\n')[0]}`)

// 1. Unpaid: the price, as x402 v2 payment requirements.
const unpaid = await client.callTool({ name, arguments: args })
const required = unpaid.structuredContent
if (!unpaid.isError || required?.x402Version !== 2) {
  console.error(unpaid.content?.[0]?.text ?? 'expected a payment-required result')
  process.exit(1)
}
console.error(`asked to pay ${Number(required.accepts[0].amount) / 1e6} USDC on ${required.accepts[0].network}`)

// 2. Signed and sent again with the payment.
const payment = await payer.createPaymentPayload(required)
const paid = await client.callTool({ name, arguments: args, _meta: { 'x402/payment': payment } })
await client.close()
if (paid.isError) {
  console.error(paid.content?.[0]?.text)
  process.exit(1)
}
console.log(JSON.stringify(paid.structuredContent, null, 2))
console.error('receipt:', JSON.stringify(paid._meta?.['x402/payment-response']))
