// x402 v1 peer for the 402 benchmark: x402-hono 1.1.0 (with x402 1.2.0) on Hono 4.13, served by Bun.serve. One
// paid route, USD 0.10 in USDC on base-sepolia (v1 takes one network per route), discoverable: its bazaar metadata
// is the requirement's outputSchema (input: method and query parameters; output). The 402 is built locally: the
// facilitator (x402.org by default) is only called to verify and settle a payment.
// Usage: bun scripts/bench-peers/hono-v1.ts <port>
import { Hono } from 'hono'
import { paymentMiddleware } from 'x402-hono'

const PATH = '/v1/market-data/flights/summary'
// x402 v1 types each query parameter as a string; discovery clients (and our service) send a field object instead
const queryParams = { destination: { type: 'string', required: true } } as unknown as Record<string, string>
const output = { type: 'object', properties: { destination: { type: 'string' }, country: { type: 'string' }, summary: { type: 'object' } } }
const summary = (destination?: string) => ({ destination, country: 'Japan', source_month: '2025-01', summary: { routes: 42 } })

const app = new Hono()
app.use(
  paymentMiddleware('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', {
    [`GET ${PATH}`]: {
      price: '$0.10',
      network: 'base-sepolia',
      config: {
        description: 'Latest or month-specific destination summary',
        mimeType: 'application/json',
        discoverable: true,
        inputSchema: { queryParams },
        outputSchema: output,
      },
    },
  }),
)
app.get(PATH, (c) => c.json(summary(c.req.query('destination'))))

Bun.serve({ port: Number(process.argv[2]), hostname: '127.0.0.1', fetch: app.fetch })
