import { AsyncLocalStorage } from 'node:async_hooks'
import type { FacilitatorClient } from '@x402/core/http'
import type { VerifyResponse } from '@x402/core/types'

/**
 * Self mode's payment calls and the chain's RPC: which call saw the RPC fail. Kept apart from
 * evm-facilitator.ts so that the settler can name the failure without loading @x402/evm.
 */

/** An RPC that did not answer (refused, hung, or answered what is not JSON-RPC): no verdict on the payment. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError'
}

/** The RPC failures seen by the payment call in progress (verify or settle), one record per call. */
const rpcFailures = new AsyncLocalStorage<{ failure?: string }>()

/**
 * A facilitator client whose verify fails with ChainUnavailableError when the RPC failed during it and no
 * valid verdict came back. `@x402/evm` turns some RPC failures into payer-fault verdicts (its v1 scheme
 * answers `invalid_exact_evm_signature` when the signature check cannot reach the chain): a refusal given
 * while the chain could not be asked is no verdict. Settle is passed through: a failure there may follow a
 * broadcast, and the settler's pending state and the reconciler handle it.
 */
export function verifyingWithChain(
  client: Pick<FacilitatorClient, 'verify' | 'settle'>,
  /** The longest a verification may take: RPC calls that each stay within their timeout can still add up. */
  deadlineMs = 30_000,
): Pick<FacilitatorClient, 'verify' | 'settle'> {
  return {
    async verify(payload, requirements) {
      const seen: { failure?: string } = {}
      let result: VerifyResponse
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ChainUnavailableError(`the chain did not verify within ${deadlineMs / 1000} s`)), deadlineMs)
      })
      try {
        result = await Promise.race([rpcFailures.run(seen, () => client.verify(payload, requirements)), late]).finally(() =>
          clearTimeout(timer),
        )
      } catch (error) {
        throw seen.failure ? new ChainUnavailableError(seen.failure) : error
      }
      if (seen.failure && !result.isValid) throw new ChainUnavailableError(seen.failure)
      return result
    },
    settle: (payload, requirements) => client.settle(payload, requirements),
  }
}

/** Records an RPC failure for the payment call in progress, if any (the first one is kept). */
export function recordRpcFailure(failure: string): void {
  const seen = rpcFailures.getStore()
  if (seen) seen.failure ??= failure
}
