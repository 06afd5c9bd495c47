import { Elysia } from 'elysia'
import { handleMcp, type McpDeps } from '../mcp/server'
import { requestIdFor } from './request-id'
import type { RequestLog } from './request-log'

/** `/mcp`: the catalog as MCP tools over Streamable HTTP, paid per call with the x402 MCP transport. */
export function mcpRoute(deps: Omit<McpDeps, 'requestId' | 'clientIp'>, log: RequestLog) {
  return new Elysia({ name: 'mcp-route' }).all(
    '/mcp',
    async ({ request, body }) => {
      const id = log.id(request)
      // The body was read by the app's parser within REQUEST_LIMITS.mcpBodyBytes; the SDK gets the parsed message.
      // The client's address is worked out only when a tool call carries a payment (the per-IP limit).
      const response = await handleMcp({ ...deps, requestId: () => requestIdFor(null), clientIp: () => log.client(request) }, request, request.method === 'POST' ? body : undefined)
      response.headers.set('x-request-id', id)
      log.finish(request, response.status)
      return response
    },
    { detail: { tags: ['service'], summary: 'Remote MCP server (Streamable HTTP): every paid route as a tool, paid with x402 in _meta["x402/payment"]' } },
  )
}
