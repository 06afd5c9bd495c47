import type { RouteSpec } from '../catalog'
import { type HandlerResult, PIPELINE_VERSION, type SuccessEnvelope } from '../core'

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
