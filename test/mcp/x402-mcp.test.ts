/**
 * Vercel's `x402-mcp` (0.0.5), a common MCP payment client, pays our tools as it pays its own servers'
 * (its dist/client.js and dist/server.js): an unpaid call returns x402 v1 requirements, its
 * `generatePaymentAuthorization` tool signs one (x402's `createPaymentHeader`), and the call is made again
 * with that base64 x402 v1 header in `_meta["x402.payment"]`; the receipt comes back in
 * `_meta["x402.payment-response"]`. Driven through the AI SDK's MCP client, as the package expects.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { experimental_createMCPClient as createMCPClient } from 'ai'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { withPayment } from 'x402-mcp'
import { startServer, type StartedServer } from '../../support/server'

let server: StartedServer
beforeAll(async () => {
  server = await startServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
})

/** What an AI SDK tool call is given besides its arguments. */
const call = { toolCallId: 'call-1', messages: [] }

test('x402-mcp pays a tool call with its base64 x402 v1 payment in _meta["x402.payment"], and reads its receipt', async () => {
  const client = await withPayment(
    (await createMCPClient({ transport: new StreamableHTTPClientTransport(new URL('/mcp', server.url)) })) as never,
    // x402-mcp is typed against its own copy of viem (test/parts): the same account, typed by the other copy.
    { account: privateKeyToAccount(generatePrivateKey()) as never, network: 'base-sepolia' },
  )
  try {
    const tools = (await client.tools()) as unknown as Record<string, { execute: (args: unknown, options: unknown) => Promise<any> }>
    // Unpaid: the requirements, as x402 v1 `accepts`, in the result the model reads.
    const unpaid = await tools.flights_months!.execute({}, call)
    expect(unpaid.isError).toBe(true)
    const asked = JSON.parse(unpaid.content[0].text)
    expect(asked.x402Version).toBe(1)
    const requirements = asked.accepts.find((a: { network: string }) => a.network === 'base-sepolia')
    expect(requirements).toMatchObject({ scheme: 'exact', maxAmountRequired: '30000' })
    // The model asks x402-mcp's own tool for a payment, then calls again with it.
    const { paymentAuthorization } = await tools.generatePaymentAuthorization!.execute({ paymentRequirements: requirements }, call)
    expect(typeof paymentAuthorization).toBe('string')
    const paid = await tools.flights_months!.execute({ paymentAuthorization }, call)
    expect(paid.isError).toBeFalsy()
    expect(paid.structuredContent).toMatchObject({ success: true, pricing: { amount_usd: '0.03', payment_status: 'paid' } })
    expect(paid._meta['x402.payment-response']).toMatchObject({ success: true, network: 'base-sepolia' })
    // The same payment again gets the stored answer, not a second charge.
    const again = await tools.flights_months!.execute({ paymentAuthorization }, call)
    expect(again.structuredContent.data).toEqual(paid.structuredContent.data)
    // Spent on one tool, it buys no other.
    const other = await tools.flights_summary!.execute({ destination: 'Tokyo', paymentAuthorization }, call)
    expect(other.isError).toBe(true)
  } finally {
    await client.close()
  }
}, 60_000)
