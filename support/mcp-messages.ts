import type { createPayer } from './payer'

/** The headers of an MCP client's POST to /mcp: a JSON-RPC message, a JSON answer or an event stream back. */
export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** A JSON-RPC request, as the body of a POST to /mcp. */
export const rpcBody = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params })

/** A tools/call request; a payment travels in `_meta["x402/payment"]`, the x402 MCP transport's place for it. */
export const toolCallBody = (name: string, args: Record<string, unknown>, payment?: unknown, id = 1) =>
  rpcBody('tools/call', { name, arguments: args, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) }, id)

/** A v2 PaymentPayload object for `value` atomic USDC, as an MCP client puts it in `_meta`. */
export const paymentObject = async (payer: ReturnType<typeof createPayer>, value: bigint) =>
  JSON.parse(Buffer.from(await payer.proof({ value }), 'base64').toString())

/** The protocol revision of MCP without a handshake: every request carries its version and client in `_meta`. */
export const MODERN_REVISION = '2026-07-28'

/** A 2026-07-28 request's `_meta` envelope: the revision, who asks, and what it can do. */
export const modernEnvelope = (revision = MODERN_REVISION) => ({
  'io.modelcontextprotocol/protocolVersion': revision,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
})

/** The headers a 2026-07-28 POST carries besides the body: its revision, its method and (tools/call) the tool's name. */
export const modernHeaders = (method: string, name?: string) => ({
  ...MCP_HEADERS,
  'mcp-protocol-version': MODERN_REVISION,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
})

/** A 2026-07-28 JSON-RPC request: the envelope merged into `params._meta`. */
export const modernBody = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  rpcBody(method, { ...params, _meta: { ...((params._meta as object | undefined) ?? {}), ...modernEnvelope() } }, id)
