/**
 * An HTTP error of `/mcp` that precedes any JSON-RPC message: a JSON-RPC error response without `id`
 * (MCP Streamable HTTP lets such bodies omit it: the request's id was never read), our request id in
 * `error.data.request_id` and the `x-request-id` header.
 */
export function jsonRpcErrorResponse(
  status: number,
  requestId: string,
  message: string,
  data: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message, data: { ...data, request_id: requestId } } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers },
  })
}
