import {
  type CallToolResult,
  createMcpHandler,
  isLegacyRequest,
  ProtocolErrorCode,
  Server,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'
import {
  CATALOG,
  type EvidenceMode,
  MCP_TOOL_RESOURCE,
  plainSchema,
  routeInputSchema,
  type RouteSpec,
  successEnvelope,
  toolName,
  usesEvidence,
} from '../catalog'
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
  /** Where the China evidence comes from: with live providers, the tools that use it reach the open web (`openWorldHint`). */
  evidence: EvidenceMode
  /** A fresh request id per tool call, as the HTTP routes log them. */
  requestId: () => string
  /** The caller's address (behind trusted proxies, the forwarded one), for the per-IP limit; none in process. */
  clientIp?: () => string | undefined
}

const ROUTES = new Map(CATALOG.map((r) => [toolName(r), r]))

/** How long a client may keep `tools/list` (2026-07-28 cache hints): the tools change with a release, not a request. */
const TOOLS_TTL_MS = 5 * 60_000

/**
 * A JSON-RPC error the SDK answers as it is (`code`, `message`, `data`): the SDK's own errors carry an
 * "MCP error <code>:" prefix that clients then print twice.
 */
class RpcError extends Error {
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
    throw new RpcError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}`, {
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
    resourceUrl: MCP_TOOL_RESOURCE + name,
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

/**
 * What a tool's `structuredContent` may be: its paid answer, or (with `isError`) an error envelope or the
 * x402 PaymentRequired. All three are admitted because SDK 1.x clients check `structuredContent` against
 * `outputSchema` on error results too, and would refuse every unpaid call otherwise.
 */
function outputSchema(route: RouteSpec): Tool['outputSchema'] {
  return {
    type: 'object',
    anyOf: [
      plainSchema(successEnvelope(route)),
      {
        description: 'An error (isError): the envelope every error of this API shares.',
        properties: { success: { const: false }, error: { type: 'object', required: ['code', 'message'] }, meta: { type: 'object' } },
        required: ['success', 'error', 'meta'],
      },
      {
        description: 'Payment required (isError): the x402 PaymentRequired, whose `accepts` say how to pay.',
        properties: { x402Version: { type: 'integer' }, accepts: { type: 'array' }, error: { type: 'string' } },
        required: ['x402Version', 'accepts'],
      },
    ],
  } as Tool['outputSchema']
}

/** The tools of this release, built once per service (served routes, networks, evidence): a list is the same for every caller. */
const toolLists = new WeakMap<ReadonlySet<string>, { offers: McpDeps['offers']; evidence: EvidenceMode; tools: Tool[] }>()

function toolsOf(deps: McpDeps): Tool[] {
  const built = toolLists.get(deps.implemented)
  if (built && built.offers === deps.offers && built.evidence === deps.evidence) return built.tools
  const tools: Tool[] = CATALOG.filter((r) => deps.implemented.has(r.id)).map((route) => ({
    name: toolName(route),
    title: route.summary,
    description: `${route.description} Price: USD ${route.priceUsd} per call, paid with x402 (send the PaymentPayload in _meta["x402/payment"]; a call without it returns the payment requirements).`,
    inputSchema: routeInputSchema(route) as Tool['inputSchema'],
    outputSchema: outputSchema(route),
    // Every tool reads; none changes anything a caller can see. Live evidence comes from the open web.
    annotations: { title: route.summary, readOnlyHint: true, openWorldHint: deps.evidence === 'live' && usesEvidence(route) },
    _meta: {
      'x402/price_usd': route.priceUsd,
      'x402/network': deps.offers[0]!.network.caip2,
      'x402/networks': deps.offers.map((o) => o.network.caip2),
    },
  }))
  toolLists.set(deps.implemented, { offers: deps.offers, evidence: deps.evidence, tools })
  return tools
}

/** The MCP server of one request (both eras): the tools listed and called through the paid call. */
function mcpServer(deps: McpDeps): Server {
  const server = new Server(
    { name: 'china-market-intel', version: pkg.version },
    { capabilities: { tools: {} }, cacheHints: { 'tools/list': { ttlMs: TOOLS_TTL_MS, cacheScope: 'public' } } },
  )
  server.setRequestHandler('tools/list', () => ({ tools: toolsOf(deps) }))
  server.setRequestHandler('tools/call', (request) =>
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
 * The remote MCP endpoint (Streamable HTTP, stateless, JSON answers), in both eras of the protocol:
 * a 2026-07-28 request (its `_meta` envelope) goes to the official handler, which answers
 * `server/discover`, checks the `Mcp-*` headers and adds `resultType` and the cache hints; a 2025 one
 * (`initialize`, then calls without the envelope) to a stateless transport answering JSON, as before.
 * A server per request: no MCP state lives between calls; payments and answers live in the ledger.
 */
export async function handleMcp(deps: McpDeps, request: Request, parsedBody?: unknown): Promise<Response> {
  const options = parsedBody === undefined ? undefined : { parsedBody }
  if (!(await isLegacyRequest(request, parsedBody))) {
    // No `subscriptions/listen` streams: a release's tools never change, and a stream would hold a connection open.
    return createMcpHandler(() => mcpServer(deps), { legacy: 'reject', maxSubscriptions: 0 }).fetch(request, options)
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  const server = mcpServer(deps)
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, options)
  } finally {
    await server.close()
  }
}
