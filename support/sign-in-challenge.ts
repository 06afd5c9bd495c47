/**
 * The fresh part of an HTTP 402's sign-in challenge (x402's sign-in-with-x): what a test that compares a
 * 402 byte for byte with one built the slow way takes from the answer, once its form is checked.
 */
import { expect } from 'bun:test'
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http'
import { type FreshChallenge, SIGN_IN_WITH_X } from '../src/payments/gate/sign-in'

/** The nonce, issuedAt and expirationTime of a PAYMENT-REQUIRED header: a 128-bit hex nonce, issued within the last minute, for five minutes. */
export function freshChallengeOf(header: string): FreshChallenge {
  const info = (decodePaymentRequiredHeader(header).extensions?.[SIGN_IN_WITH_X] as { info: FreshChallenge } | undefined)?.info
  expect(info?.nonce).toMatch(/^[0-9a-f]{32}$/)
  const issued = Date.parse(info!.issuedAt)
  expect(Date.now() - issued).toBeLessThan(60_000)
  expect(Date.parse(info!.expirationTime) - issued).toBe(300_000)
  return { nonce: info!.nonce, issuedAt: info!.issuedAt, expirationTime: info!.expirationTime }
}

/** A PAYMENT-REQUIRED header with its challenge's fresh fields (their form checked) set to fixed ones: two 402s then compare whole. */
export function challengeFixed(header: string | null): string | null {
  if (header === null) return null
  freshChallengeOf(header)
  const required = decodePaymentRequiredHeader(header)
  const extension = required.extensions![SIGN_IN_WITH_X] as { info: FreshChallenge }
  extension.info = { ...extension.info, nonce: 'n', issuedAt: 'i', expirationTime: 'e' }
  return encodePaymentRequiredHeader(required)
}
