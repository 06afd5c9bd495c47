/**
 * A batch-settlement refund request is answered by the gate, not by the route it was sent to: the
 * refund is made on chain (the unclaimed rest of the deposit back to the payer) before this answer
 * leaves, in the success envelope every answer shares. Nothing is charged for it.
 */
import { PIPELINE_VERSION, type SuccessEnvelope } from '../../core'

export function refundAnswer(requestId: string, channelId: string): string {
  const envelope: SuccessEnvelope<{ refund: { channel_id: string; status: 'refunded' } }> = {
    success: true,
    data: { refund: { channel_id: channelId, status: 'refunded' } },
    meta: { request_id: requestId, generated_at: new Date().toISOString(), pipeline_version: PIPELINE_VERSION },
    pricing: { amount_usd: '0', payment_status: 'paid' },
  }
  return JSON.stringify(envelope)
}
