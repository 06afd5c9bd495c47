import type { RouteSpec } from '../catalog/types'
import { ApiError } from '../core/errors'
import type { HandlerResult } from '../core/route-handler'
import { PIPELINE_VERSION, type SuccessEnvelope } from '../core/envelope'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export function errorResponse(err: ApiError, requestId: string): Response {
  return new Response(err.toJson(requestId), { status: err.status, headers: err.responseHeaders(requestId) })
}

/** A JSON answer; a paid CSV or Arrow answer (bytes as they are) when `headers` name its content type. */
export function jsonResponse(body: unknown, status: number, requestId: string, headers?: Record<string, string>): Response {
  return new Response(typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body), {
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers },
  })
}

/** The success envelope of a paid answer, the same for HTTP and MCP. */
export function buildSuccess(route: RouteSpec, requestId: string, result: HandlerResult, artifactPath: string): SuccessEnvelope {
  return {
    success: true,
    data: result.data,
    meta: {
      request_id: requestId,
      generated_at: new Date().toISOString(),
      pipeline_version: PIPELINE_VERSION,
      ...(result.cacheStatus ? { cache_status: result.cacheStatus } : {}),
      artifact_path: artifactPath,
    },
    pricing: { amount_usd: route.priceUsd, payment_status: 'paid' },
  }
}
