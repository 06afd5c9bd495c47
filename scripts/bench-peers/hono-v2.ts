// x402 v2 peer for the 402 benchmark: @x402/hono 2.27.0 on Hono 4.13, served by Bun.serve. The route, its
// three networks (Base Sepolia, Polygon Amoy, Arbitrum Sepolia) and the bazaar extension are in v2-routes.mjs.
// Usage: bun scripts/bench-peers/hono-v2.ts <port> <facilitator URL, e.g. the fake-facilitator.ts one>
import { paymentMiddleware } from '@x402/hono'
import { Hono } from 'hono'
import { PATH, resourceServer, routes, summary } from './v2-routes.mjs'

const app = new Hono()
app.use(paymentMiddleware(routes, resourceServer(process.argv[3])))
app.get(PATH, (c) => c.json(summary(c.req.query('destination'))))

Bun.serve({ port: Number(process.argv[2]), hostname: '127.0.0.1', fetch: app.fetch })
