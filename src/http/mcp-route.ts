import { Elysia } from 'elysia'
import { handleMcp, type McpDeps } from '../mcp/server'
import type { McpOriginGuard } from './mcp-origin'
import { requestIdFor } from './request-id'
import type { RequestLog } from './request-log'

/** `/mcp`: the catalog as MCP tools over Streamable HTTP, paid per call with the x402 MCP transport. */
export function mcpRoute(deps: Omit<McpDeps, 'requestId' | 'clientIp'>, log: RequestLog, guard: McpOriginGuard) {
  return new Elysia({ name: 'mcp-route' }).all(
    '/mcp',
    async ({ request, server, body }) => {
      const id = log.id(request)
      // A POST's body was only read after this check passed (app.ts onParse); GET, DELETE and others have none.
      const refusal = guard(request)
      if (refusal) {
        log.finish(request, 403)
        return refusal.response(id)
      }
      const clientIp = server?.requestIP(request)?.address
      // The body was read by the app's parser within REQUEST_LIMITS.mcpBodyBytes; the SDK gets the parsed message.
      const response = await handleMcp({ ...deps, requestId: () => requestIdFor(null), ...(clientIp ? { clientIp } : {}) }, request, request.method === 'POST' ? body : undefined)
      response.headers.set('x-request-id', id)
      log.finish(request, response.status)
      return response
    },
    { detail: { tags: ['service'], summary: 'Remote MCP server (Streamable HTTP): every paid route as a tool, paid with x402 in _meta["x402/payment"]' } },
  )
}
