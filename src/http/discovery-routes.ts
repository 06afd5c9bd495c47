import { Elysia } from 'elysia'
import { llmsTxt, wellKnownX402, type DiscoveryContext } from '../discovery/documents'
import type { RequestLog } from './requests/request-log'

/** Free discovery documents for agents and catalogs, generated once from the catalog and the payment config. */
export function discoveryRoutes(ctx: DiscoveryContext, log: RequestLog) {
  const x402 = JSON.stringify(wellKnownX402(ctx))
  const llms = llmsTxt(ctx)
  const send = (request: Request, body: string, type: string) => {
    const id = log.id(request)
    log.finish(request, 200)
    return new Response(body, { headers: { 'content-type': type, 'x-request-id': id, 'cache-control': 'public, max-age=300' } })
  }
  return new Elysia({ name: 'discovery-routes' })
    .get('/.well-known/x402', ({ request }) => send(request, x402, 'application/json; charset=utf-8'), {
      detail: {
        tags: ['service'],
        summary: 'x402 discovery: every paid resource with price, payment terms, input and output schema (free)',
      },
    })
    .get('/llms.txt', ({ request }) => send(request, llms, 'text/markdown; charset=utf-8'), {
      detail: { tags: ['service'], summary: 'The API described for agents, in Markdown (free)' },
    })
}
