// x402 v2 peer for the 402 benchmark: @x402/express 2.27.0 on Express 5.1 (Node), with the same route, three
// networks and bazaar extension as hono-v2.ts (v2-routes.mjs).
// Usage: node scripts/bench-peers/express-v2.mjs <port> <facilitator URL, e.g. the fake-facilitator.ts one>
import { paymentMiddleware } from '@x402/express'
import express from 'express'
import { PATH, resourceServer, routes, summary } from './v2-routes.mjs'

const app = express()
app.use(paymentMiddleware(routes, resourceServer(process.argv[3])))
app.get(PATH, (req, res) => res.json(summary(req.query.destination)))

app.listen(Number(process.argv[2]), '127.0.0.1')
