import { Elysia } from 'elysia'
import { jsonRpcErrorResponse } from './json-rpc-error'
import type { McpOriginGuard } from './mcp-origin'
import { requestIdFor } from './requests/request-id'
import type { RequestLog } from './requests/request-log'
import { CATALOG } from '../catalog'
import { paymentWindowSeconds } from '../payments'
import { MAX_IDLE_SECONDS } from './requests/slow-answers'

const MCP_WINDOW_SECONDS = Math.min(MAX_IDLE_SECONDS, Math.max(...CATALOG.map(paymentWindowSeconds)))

/**
 * Answers one MCP message (the parsed JSON-RPC body) for `request`: the MCP adapter (mcp/server.ts),
 * given by the composition (composition/app.ts) so that this HTTP adapter does not import the MCP one.
 */
export type McpHandler = (
  request: Request,
  body: unknown,
  context: { requestId: () => string; clientIp: () => string | undefined },
) => Promise<Response>

/** `/mcp`: the catalog as MCP tools over Streamable HTTP, paid per call with the x402 MCP transport. */
export function mcpRoute(handle: McpHandler, log: RequestLog, guard: McpOriginGuard) {
  return new Elysia({ name: 'mcp-route' }).all(
    '/mcp',
    async ({ request, server, body }) => {
      const id = log.id(request)
      // A POST's body was only read after this check passed (composition/app.ts onParse); other methods are checked here.
      const refusal = guard(request)
      if (refusal) {
        log.finish(request, 403)
        return refusal.response(id)
      }
      // Stateless with JSON answers: no stream to GET, no session to DELETE, so the spec's 405 for both.
      // (A GET stream that ended at once made SDK clients reopen it every second, for as long as they were connected.)
      if (request.method !== 'POST') {
        log.finish(request, 405)
        return jsonRpcErrorResponse(
          405,
          id,
          `${request.method} is not allowed on /mcp: this server is stateless and answers POSTed JSON-RPC messages only.`,
          { code: 'method_not_allowed', allowed: ['POST'] },
          { allow: 'POST' },
        )
      }
      // The body was read by the app's parser within REQUEST_LIMITS.mcpBodyBytes; the SDK gets the parsed message.
      // The client's address is worked out only when a tool call carries a payment (the per-IP limit).
      // A tool call may run the slowest route: its connection may stay silent for that route's payment window.
      server?.timeout(request, MCP_WINDOW_SECONDS)
      const response = await handle(request, body, { requestId: () => requestIdFor(null), clientIp: () => log.client(request) })
      response.headers.set('x-request-id', id)
      log.finish(request, response.status)
      return response
    },
    {
      detail: {
        tags: ['service'],
        summary: 'Remote MCP server (Streamable HTTP): every paid route as a tool, paid with x402 in _meta["x402/payment"]',
      },
    },
  )
}
