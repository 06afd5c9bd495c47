import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { CATALOG, routeInputSchema, type RouteSpec } from '../catalog'
import type { ApiError } from '../core'
import type { PaidCaller } from '../paid-call'
import { type PaymentOffer, proofFromHeader, proofFromObject, type ProofInput } from '../payments'
import pkg from '../../package.json' with { type: 'json' }

export interface McpDeps {
  paid: PaidCaller
  /** The routes this release serves: the tools listed. */
  implemented: ReadonlySet<string>
  /** The networks a payment may be made on; the first names the network of a receipt-less answer. */
  offers: readonly PaymentOffer[]
  /** A fresh request id per tool call, as the HTTP routes log them. */
  requestId: () => string
  /** The caller's address (behind trusted proxies, the forwarded one), for the per-IP limit; none in process. */
  clientIp?: () => string | undefined
}

/** Tool names are the catalog ids with `_` for `.` (MCP tool names allow letters, digits, `_` and `-`). */
export const toolName = (route: RouteSpec) => route.id.replaceAll('.', '_')
const ROUTES = new Map(CATALOG.map((r) => [toolName(r), r]))

/**
 * A JSON-RPC error the SDK's Protocol answers as it is (`code`, `message`, `data`). Not McpError, whose
 * message carries an "MCP error <code>:" prefix that clients then print twice.
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
  }
}

const text = (value: unknown) => [{ type: 'text' as const, text: typeof value === 'string' ? value : JSON.stringify(value) }]

/** An error envelope as a tool result: `isError`, the same JSON the HTTP route would answer. */
function errorResult(error: ApiError, requestId: string): CallToolResult {
  const envelope = JSON.parse(error.toJson(requestId))
  if (!error.payment) return { isError: true, content: text(envelope), structuredContent: envelope }
  // x402 MCP transport: the PaymentRequired object, directly and in the `x402/error` wrapper.
  const message =
    error.code === 'payment_required'
      ? `Payment required: send an x402 PaymentPayload for one of \`accepts\` in _meta["x402/payment"] and call again.`
      : error.message
  const paymentRequired = { ...error.payment.v2, error: message }
  return {
    isError: true,
    structuredContent: paymentRequired as unknown as Record<string, unknown>,
    content: text({
      'x402/error': { code: 402, message, data: paymentRequired },
      // Vercel's x402-mcp form: x402 v1 requirements, whose client signs one and sends it in _meta["x402.payment"].
      x402Version: 1,
      accepts: error.payment.v1Accepts,
      request_id: requestId,
      error: { ...envelope.error, message },
    }),
  }
}

/**
 * The payment of a tool call: the spec's PaymentPayload object in `_meta["x402/payment"]`, or Vercel's
 * x402-mcp form, the x402 v1 payload (or its base64 header, as X-PAYMENT) in `_meta["x402.payment"]`.
 */
function paymentOf(meta: Record<string, unknown> | undefined): { payment: ProofInput; form: 'spec' | 'x402-mcp' } {
  const spec = meta?.['x402/payment']
  if (spec !== undefined) return { payment: proofFromObject(spec), form: 'spec' }
  const dotted = meta?.['x402.payment']
  if (dotted === undefined) return { payment: undefined, form: 'spec' }
  return { payment: typeof dotted === 'string' ? proofFromHeader(dotted) : proofFromObject(dotted), form: 'x402-mcp' }
}

/**
 * One tool call, translated: the tool's arguments and `_meta` payment in, through the paid call (the same
 * as HTTP's), and its result out as a tool result. The settlement goes back in `_meta["x402/payment-response"]`.
 */
async function callTool(
  deps: McpDeps,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const requestId = deps.requestId()
  const route = ROUTES.get(name)
  // MCP tools, "Error Handling": an unknown tool is a protocol error (-32602), not a tool result. A
  // catalog route this release does not serve is not in tools/list, so it is unknown too.
  if (!route || !deps.implemented.has(route.id))
    throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`, {
      request_id: requestId,
      name: name.slice(0, 100),
    })
  const pathNames = Object.keys(route.params?.properties ?? {})
  const { payment, form } = paymentOf(meta)
  const result = await deps.paid({
    routeId: route.id,
    input: Object.fromEntries(Object.entries(args).filter(([k]) => !pathNames.includes(k))),
    params: Object.fromEntries(pathNames.map((n) => [n, args[n]])),
    payment,
    resourceUrl: `mcp://tool/${name}`,
    requestId,
    clientIp: () => deps.clientIp?.(),
  })
  if (result.kind === 'refused') return errorResult(result.error, requestId)
  const answer = result.answer
  // The gate gives a receipt in every mode (an empty transaction in local mode); this covers an answer without one.
  const settlement = answer.receipt ?? { success: true, transaction: '', network: answer.network, payer: answer.payer }
  const body = answer.body as string // a tool's answer is the JSON envelope: MCP asks no `format`, and a proof bought in CSV or Arrow is another fingerprint
  const receiptKey = form === 'x402-mcp' ? 'x402.payment-response' : 'x402/payment-response'
  return { content: text(body), structuredContent: JSON.parse(body), _meta: { [receiptKey]: settlement } }
}

function mcpServer(deps: McpDeps): Server {
  const server = new Server({ name: 'china-market-intel', version: pkg.version }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: CATALOG.filter((r) => deps.implemented.has(r.id)).map((route) => ({
      name: toolName(route),
      title: route.summary,
      description: `${route.description} Price: USD ${route.priceUsd} per call, paid with x402 (send the PaymentPayload in _meta["x402/payment"]; a call without it returns the payment requirements).`,
      inputSchema: routeInputSchema(route) as never,
      _meta: {
        'x402/price_usd': route.priceUsd,
        'x402/network': deps.offers[0]!.network.caip2,
        'x402/networks': deps.offers.map((o) => o.network.caip2),
      },
    })),
  }))
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(
      deps,
      request.params.name,
      (request.params.arguments ?? {}) as Record<string, unknown>,
      request.params._meta as Record<string, unknown> | undefined,
    ),
  )
  return server
}

/**
 * The remote MCP endpoint (Streamable HTTP, stateless, JSON responses): a server and transport per
 * request, so no MCP session state lives between calls; payments and results live in the ledger.
 */
export async function handleMcp(deps: McpDeps, request: Request, parsedBody?: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  const server = mcpServer(deps)
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody })
  } finally {
    await server.close()
  }
}
