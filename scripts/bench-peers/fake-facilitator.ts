// Fake x402 v2 facilitator for the 402 benchmark: answers only GET /supported (the x402 v2 SupportedResponse of
// @x402/core 2.27.0: kinds, extensions, signers), which the v2 resource servers fetch once when they start
// (syncFacilitatorOnStart). Unpaid requests never reach /verify or /settle, so everything else is a 404.
// Usage: bun scripts/bench-peers/fake-facilitator.ts <port>
import { NETWORKS } from './v2-routes.mjs'

const supported = JSON.stringify({
  kinds: NETWORKS.map((network) => ({ x402Version: 2, scheme: 'exact', network })),
  extensions: ['bazaar'],
  signers: {},
})

Bun.serve({
  port: Number(process.argv[2]),
  hostname: '127.0.0.1',
  fetch: (req) =>
    req.method === 'GET' && new URL(req.url).pathname === '/supported'
      ? new Response(supported, { headers: { 'content-type': 'application/json' } })
      : new Response('Not Found', { status: 404 }),
})
