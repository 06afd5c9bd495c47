import { ApiError } from './errors'

export const PIPELINE_VERSION = 'v1'

export interface SuccessMeta {
  request_id: string
  generated_at: string
  pipeline_version: string
  cache_status?: 'hit' | 'miss'
  artifact_path?: string
}

/** The success envelope of a paid route (errors: ApiError.toJson). */
export interface SuccessEnvelope<D = unknown> {
  success: true
  data: D
  meta: SuccessMeta
  pricing: { amount_usd: string; payment_status: 'paid' }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export function errorResponse(err: ApiError, requestId: string): Response {
  return new Response(err.toJson(requestId), { status: err.status, headers: err.responseHeaders(requestId) })
}

export function jsonResponse(body: unknown, status: number, requestId: string, headers?: Record<string, string>): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers },
  })
}
