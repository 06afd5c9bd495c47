/**
 * Paid requests from chosen loopback addresses (127.0.0.2, 127.0.0.3 ...), with or without a forwarded
 * client, to check the service's per-IP limit and its log lines behind a proxy or without one.
 */
import { expect } from 'bun:test'
import { usdToAtomic } from '../src/core/usdc'
import { type Answer, requestFrom } from './from-address'
import { MCP_HEADERS, paymentObject, toolCallBody } from './mcp-messages'
import type { createPayer } from './payer'
import type { StartedServer } from './server'

type Payer = ReturnType<typeof createPayer>
/** flights.months: the cheapest paid route. */
const MONTHS_PRICE = usdToAtomic('0.03')

/** A paid GET of flights.months from `from`; `xff` is sent as X-Forwarded-For (an array: one header line each). */
export const paidMonthsFrom = async (payer: Payer, from: string, base: string, xff?: string | string[]): Promise<Answer> =>
  requestFrom(from, `${base}/v1/market-data/flights/months`, {
    headers: { 'x402-payment': await payer.proof({ value: MONTHS_PRICE }), ...(xff ? { 'x-forwarded-for': xff } : {}) },
  })

/** A paid flights_months tool call over /mcp from `from`, with X-Forwarded-For `xff`: the HTTP status must be 200; its JSON-RPC result. */
export async function paidMonthsToolFrom(payer: Payer, from: string, base: string, xff: string) {
  const res = await requestFrom(from, `${base}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'x-forwarded-for': xff },
    body: toolCallBody('flights_months', {}, await paymentObject(payer, MONTHS_PRICE)),
  })
  expect(res.status).toBe(200)
  return res.json().result
}

/** The service's request log lines (LOG_LEVEL=info), parsed. */
export const requestLogLines = (server: StartedServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line))
