import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import {
  bazaarExtension,
  MCP_TOOL_RESOURCE,
  mcpBazaarExtension,
  type RouteSpec,
  SERVICE,
  type ServiceMetadata,
  v1OutputSchema,
} from '../../catalog'
import { usdToAtomic, type X402Requirements } from '../../core'
import type { BatchOffer, NetworkInfo, PaymentOffer } from '../networks'
import { batchAccept } from '../batch/batch-terms'
import { PAYMENT_IDENTIFIER, paymentIdentifierDeclaration } from './payment-id'
import { SIGN_IN_WITH_X } from './sign-in'

/**
 * Payment window margin on top of a route's typical wait, so a slow answer never outlives its
 * authorization: an evidence route's slowest configurable provider chain (native, web, then the model at
 * their settings' maxima: 85 s) plus settlement's margin fits in it with time to spare (test/intelligence/live.test.ts).
 * The work is cut at the authorization's end in any case (core/work-deadline.ts).
 */
const TIMEOUT_MARGIN_SECONDS = 70

/** How long a paid request of `route` may take: its typical wait plus the margin (the x402 `maxTimeoutSeconds`). */
export const paymentWindowSeconds = (route: RouteSpec) => route.typicalWaitSeconds + TIMEOUT_MARGIN_SECONDS

export interface PaymentTerms {
  network: NetworkInfo
  payTo: `0x${string}`
  amountAtomic: bigint
  maxTimeoutSeconds: number
  /** Batch-settlement is offered on this network beside exact. */
  batch?: BatchOffer
}

export function termsFor(route: RouteSpec, offer: PaymentOffer): PaymentTerms {
  return {
    network: offer.network,
    payTo: offer.payTo,
    amountAtomic: usdToAtomic(route.priceUsd),
    maxTimeoutSeconds: paymentWindowSeconds(route),
    ...(offer.batch ? { batch: offer.batch } : {}),
  }
}

/** x402 v1 `accepts` entry (what `x402-fetch` reads from the 402 body); only for a network x402 v1 names. */
export function v1Requirements(route: RouteSpec, terms: PaymentTerms, resourceUrl: string) {
  return {
    scheme: 'exact',
    network: terms.network.v1 ?? terms.network.caip2,
    maxAmountRequired: terms.amountAtomic.toString(),
    resource: resourceUrl,
    description: `${route.summary} (USD ${route.priceUsd})`,
    mimeType: 'application/json',
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    asset: terms.network.asset,
    // How to call the route and what it answers; x402-fetch refuses a null outputSchema.
    outputSchema: v1OutputSchema(route),
    extra: { ...terms.network.eip712 },
  }
}

/** One x402 v2 `accepts` entry: the terms on one network. */
export function v2Accept(terms: PaymentTerms): PaymentRequirements {
  return {
    scheme: 'exact',
    network: terms.network.caip2,
    amount: terms.amountAtomic.toString(),
    asset: terms.network.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { ...terms.network.eip712 },
  }
}

/** The x402 extensions every v2 PaymentRequired carries, as discovery documents list them. */
export const OFFERED_EXTENSIONS = [
  {
    name: 'bazaar',
    what: 'discovery: each HTTP route (input.type "http") and each MCP tool (input.type "mcp", toolName) describes its call and example',
  },
  {
    name: PAYMENT_IDENTIFIER,
    what: 'optional idempotency key (info.id, 16-128 of [A-Za-z0-9_-]) bound per payer to one payment payload: the same payload again gets its stored answer, another payload under the id is refused with 409 payment_id_conflict and never charged',
  },
  {
    name: SIGN_IN_WITH_X,
    what: "HTTP only: each 402 carries a fresh CAIP-122 (EIP-4361) challenge; the wallet that bought a request's answer signs it (SIGN-IN-WITH-X header) to get that stored answer again, free, while it is kept",
  },
] as const

/**
 * x402 v2 PaymentRequired (what `@x402/fetch` reads from the PAYMENT-REQUIRED header): one entry per
 * network and scheme, and the route's `bazaar` discovery extension: as an HTTP route, or as an MCP tool when the
 * resource is the tool (`mcp://tool/<name>`). A v2 client echoes the extensions into its
 * payment payload, and facilitators that keep a Bazaar catalogue the resource from it when they verify
 * or settle that payment.
 */
export function v2PaymentRequired(
  route: RouteSpec,
  terms: readonly PaymentTerms[],
  resourceUrl: string,
  error: string,
  service: ServiceMetadata = SERVICE,
): PaymentRequired {
  return {
    x402Version: 2,
    error,
    resource: { url: resourceUrl, description: route.summary, mimeType: 'application/json', ...service },
    // Batch-settlement, where offered, right after exact on its network: the same price per request.
    accepts: terms.flatMap((t) => (t.batch ? [v2Accept(t), batchAccept(t, t.batch)] : [v2Accept(t)])),
    extensions: {
      bazaar: resourceUrl.startsWith(MCP_TOOL_RESOURCE) ? mcpBazaarExtension(route) : bazaarExtension(route),
      [PAYMENT_IDENTIFIER]: paymentIdentifierDeclaration(),
    },
  }
}

/** The requirements a 402 of `route` carries on every offered network, v1 and v2 (the adapters in http/ and mcp/ decide where they travel). */
export function paymentRequirements(...args: Parameters<typeof v2PaymentRequired>): X402Requirements {
  const [route, terms, resourceUrl] = args
  return {
    v1Accepts: terms.filter((t) => t.network.v1 !== null).map((t) => v1Requirements(route, t, resourceUrl)),
    v2: v2PaymentRequired(...args),
  }
}
