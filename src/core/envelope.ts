/** The success envelope every paid answer shares, over HTTP and MCP (errors: ApiError.toJson). */
export const PIPELINE_VERSION = 'v1'

export interface SuccessMeta {
  request_id: string
  generated_at: string
  pipeline_version: string
  cache_status?: 'hit' | 'miss'
  artifact_path?: string
}

export interface SuccessEnvelope<D = unknown> {
  success: true
  data: D
  meta: SuccessMeta
  pricing: { amount_usd: string; payment_status: 'paid' }
}
