/**
 * The payment parts of a runtime: the settler of the payment mode, the reconciler of pending settlements,
 * the networks actually offered (those the facilitator settles), and deferred settlement.
 */
import {
  type BatchRouting,
  type BatchSetup,
  connectFacilitator,
  DeferredSettlements,
  type FacilitatorConnection,
  FacilitatorHealth,
  FacilitatorSettler,
  localSettler,
  type NetworkName,
  type PaymentOffer,
  Reconciler,
  type Redeemer,
  refusedStatus,
  type RpcState,
  type Settler,
  type SignInVerifier,
  verifyingWithChain,
} from '../payments'
import type { Config } from '../config'
import { ConfigError, type Logger, usdToAtomic } from '../core'
import type { Metrics } from '../http'
import type { PaymentClaim, PaymentLedger, RedemptionEntry } from '../ledger'

/** Self mode: the longest one JSON-RPC request may take (hosted RPCs answer in well under a second when up). */
const RPC_TIMEOUT_MS = 10_000

/** How long start-up waits for the facilitator's `/supported` before offering every configured network. */
const SUPPORTED_WAIT_MS = 5_000

type FacilitatorParts = Omit<FacilitatorConnection, 'client'> & { health: FacilitatorHealth }

/**
 * The networks the facilitator settles, of those configured: a network its `/supported` does not list
 * (x402 v2, exact) is dropped with a warning, or start-up is refused in production. When it cannot be
 * asked (down, slow, credentials refused), every network is kept and payments answer 502 until it is back.
 */
async function offeredBy(
  config: Readonly<Config>,
  { client, url }: Pick<FacilitatorConnection, 'client' | 'url'>,
  logger: Logger,
): Promise<readonly PaymentOffer[]> {
  let kinds: { scheme: string; network: string; x402Version: number }[]
  try {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no answer in 5 s')), SUPPORTED_WAIT_MS)))
    kinds = (await Promise.race([client.getSupported(), late]).finally(() => clearTimeout(timer))).kinds
  } catch (error) {
    const status = refusedStatus(error)
    if (status === 401 || status === 403)
      // Every payment will be refused the same way: say which settings to check.
      logger.error("facilitator refused this service's credentials: payments answer 502 until they are fixed", {
        facilitator: url,
        status,
        check: config.cdpApiKey ? 'CDP_API_KEY_ID, CDP_API_KEY_SECRET' : 'X402_FACILITATOR_HEADERS',
      })
    else logger.warn('facilitator /supported failed: every configured network is offered', { facilitator: url, error: String(error) })
    return config.offers
  }
  const settles = (offer: PaymentOffer, scheme = 'exact') =>
    kinds.some((k) => k.scheme === scheme && k.x402Version === 2 && k.network === offer.network.caip2)
  // batch-settlement only where the facilitator makes its deposits, claims and refunds.
  const offers = config.offers.map((offer) => {
    if (!offer.batch || settles(offer, 'batch-settlement')) return offer
    logger.warn('facilitator does not settle batch-settlement here: only exact is offered', {
      facilitator: url,
      network: offer.network.name,
    })
    return { network: offer.network, payTo: offer.payTo }
  })
  const dropped = offers.filter((offer) => !settles(offer)).map((offer) => `${offer.network.name} (${offer.network.caip2})`)
  if (dropped.length === 0) return offers
  if (config.nodeEnv === 'production')
    throw new ConfigError(
      'PAYMENT_NETWORKS',
      `the facilitator at ${url} does not settle x402 v2 exact payments on ${dropped.join(', ')}: leave them out, or use a facilitator that does`,
    )
  const kept = offers.filter((offer) => settles(offer))
  if (kept.length === 0) {
    logger.warn('facilitator does not list the exact scheme on any configured network', { facilitator: url, networks: dropped })
    return config.offers
  }
  logger.warn('facilitator does not settle these networks: they are not offered', { facilitator: url, networks: dropped })
  return kept
}

/**
 * The settler of the configured payment mode, the reconciler of its pending settlements (over each
 * network's RPC), the networks offered, and (facilitator mode) where it settles.
 */
export async function paymentsFor(
  config: Readonly<Config>,
  ledger: PaymentLedger,
  metrics: Metrics,
  logger: Logger,
  leading?: () => boolean,
): Promise<{
  settler: Settler
  reconciler?: Reconciler
  facilitator?: FacilitatorParts
  /** Self mode: whether each network's RPC answers (what /ready reports as `checks.chain`). */
  chain?: { health: FacilitatorHealth }
  offers: readonly PaymentOffer[]
  /** On-chain modes: a smart wallet's sign-in is checked over the chain's RPC (local mode: EOA sign-ins only). */
  signInVerifier?: SignInVerifier
  /** BATCH_NETWORKS: what claims, settles and refunds the batch channels (also `payments claim`). */
  redeemer?: Redeemer
}> {
  if (config.paymentMode === 'local') {
    watchParts(metrics, ledger)
    return { settler: localSettler, offers: config.offers }
  }
  let settler: FacilitatorSettler
  /** What makes batch-settlement's deposits, claims and refunds: the facilitator of the mode. */
  let onChain: BatchSetup['facilitator']
  let health: FacilitatorHealth
  let facilitator: FacilitatorParts | undefined
  let chain: { health: FacilitatorHealth; networks: () => Promise<RpcState[]> } | undefined
  let offers = config.offers
  if (config.paymentMode === 'facilitator') {
    const { client, url, auth } = await connectFacilitator(config)
    health = new FacilitatorHealth(() => client.getSupported(), config.facilitatorOutageMs)
    facilitator = { url, auth, health }
    settler = new FacilitatorSettler('facilitator', client, health)
    onChain = client
    offers = await offeredBy(config, { client, url }, logger)
  } else {
    const { createEvmFacilitator } = await import('../payments/chain/evm-facilitator')
    const networks = config.offers.map(({ network }) => ({
      network: network.name as NetworkName,
      rpcUrl: config.rpc[network.name as NetworkName]!.url,
    }))
    const { facilitator: inProcess } = createEvmFacilitator({
      networks,
      privateKey: config.settlerPrivateKey!,
      confirmationTimeoutMs: config.facilitatorTimeoutMs,
      rpcTimeoutMs: Math.min(config.facilitatorTimeoutMs, RPC_TIMEOUT_MS),
      batchNetworks: config.offers.filter((offer) => offer.batch).map((offer) => offer.network.name as NetworkName),
    })
    const { rpcChecks, rpcStates, checkChainIds } = await import('../payments/chain/rpc-check')
    await checkChainIds(networks, logger)
    offers = await withEscrow(config, networks, logger)
    health = new FacilitatorHealth(rpcChecks(networks), config.facilitatorOutageMs, Date.now, 'eth_chainId')
    chain = { health, networks: rpcStates(networks) }
    onChain = verifyingWithChain(inProcess, config.facilitatorTimeoutMs)
    settler = new FacilitatorSettler('self', onChain, health)
  }
  const batch = config.batch
    ? await withBatch(config, { offers, ledger, exact: settler, health }, onChain, { metrics, logger }, leading)
    : undefined
  watchParts(metrics, ledger, facilitator?.health, chain?.health)
  const { createChainReader, createSignInVerifier } = await import('../payments/chain/chain-reader')
  const batchVerdict = batch && ((claim: PaymentClaim) => batch.settler.verdictOf(claim))
  const reconciler = new Reconciler(ledger, createChainReader(config.reconcileRpc), metrics.payment.paymentEvent, undefined, batchVerdict)
  if (config.reconcileSeconds > 0)
    reconciler.start(config.reconcileSeconds, (e) => logger.warn('reconcile pass failed', { error: String(e) }), leading)
  const signInVerifier = createSignInVerifier(config.reconcileRpc)
  return {
    settler: batch?.settler ?? settler,
    reconciler,
    offers,
    signInVerifier,
    ...(facilitator ? { facilitator } : {}),
    ...(chain ? { chain } : {}),
    ...(batch ? { redeemer: batch.redeemer } : {}),
  }
}

/**
 * batch-settlement beside exact (BATCH_NETWORKS): the package's resource server over the ledger's channels,
 * and the redeemer that claims, settles and refunds them on the leaseholder every BATCH_CLAIM_SECONDS.
 */
async function withBatch(
  config: Readonly<Config>,
  parts: { offers: readonly PaymentOffer[]; ledger: PaymentLedger; exact: FacilitatorSettler; health: FacilitatorHealth },
  facilitator: BatchSetup['facilitator'],
  { metrics, logger }: { metrics: Metrics; logger: Logger },
  leading?: () => boolean,
): Promise<{ settler: BatchRouting; redeemer: Redeemer }> {
  const batch = config.batch!
  const { offers, ledger } = parts
  const { BatchRouting, createBatchServer } = await import('../payments/batch/batch-settler')
  const { Redeemer } = await import('../payments/batch/redeemer')
  const { createEscrowReader } = await import('../payments/chain/escrow-reader')
  const storage = (network: string) => ledger.channelStorage(network)
  const { server, schemes } = createBatchServer({ offers, authorizerKey: batch.authorizerKey, storage, facilitator })
  const record = (entry: Omit<RedemptionEntry, 'at'>) => ledger.recordRedemption({ at: Math.floor(Date.now() / 1000), ...entry })
  const settler = new BatchRouting(parts.exact, server, schemes, parts.health, record)
  const escrow = createEscrowReader(config.reconcileRpc)
  const redeemer = new Redeemer({ offers, schemes, facilitator, ledger, escrow, refundIdleSeconds: batch.refundIdleSeconds })
  redeemer.start(batch.claimSeconds, (error) => logger.warn('batch claim pass failed', { error: String(error) }), leading)
  metrics.watchBatch({ channels: () => ledger.channelSummary(), actions: () => ledger.redemptionTotals(0) })
  logger.info('batch-settlement offered beside exact', {
    networks: offers.filter((offer) => offer.batch).map((offer) => offer.network.name),
    claim_every_seconds: batch.claimSeconds,
  })
  return { settler, redeemer }
}

/**
 * Self mode, BATCH_NETWORKS: batch-settlement stays offered only where the chain holds its escrow (where it
 * does not, every deposit would fail): dropped with a warning, refused at start in production.
 */
async function withEscrow(
  config: Readonly<Config>,
  networks: readonly { network: NetworkName; rpcUrl: string }[],
  logger: Logger,
): Promise<readonly PaymentOffer[]> {
  if (!config.batch) return config.offers
  const [{ escrowMissing }, { BATCH_SETTLEMENT_ADDRESS: BATCH_ESCROW }] = await Promise.all([
    import('../payments/chain/rpc-check'),
    import('@x402/evm'), // loaded only when batch-settlement is configured
  ])
  const missing = await escrowMissing(
    networks.filter(({ network }) => config.offers.some((offer) => offer.batch && offer.network.name === network)),
  )
  if (missing.length === 0) return config.offers
  const where = `no batch-settlement escrow at ${BATCH_ESCROW} on ${missing.join(', ')}`
  if (config.nodeEnv === 'production') throw new ConfigError('BATCH_NETWORKS', `${where}: leave them out`)
  logger.warn('batch-settlement not offered where its escrow is missing: exact only there', { networks: missing, escrow: BATCH_ESCROW })
  return config.offers.map((offer) =>
    missing.includes(offer.network.name as NetworkName) ? { network: offer.network, payTo: offer.payTo } : offer,
  )
}

/** What /ready checks of the payment parts, as /metrics gauges. */
function watchParts(metrics: Metrics, ledger: PaymentLedger, facilitator?: FacilitatorHealth, chain?: FacilitatorHealth): void {
  metrics.watchPaymentParts({
    ...(ledger.writable ? { ledgerWritable: () => ledger.writable!().ok } : {}),
    ...(facilitator ? { facilitatorReachable: () => facilitator.state().reachable } : {}),
    ...(chain ? { chainReachable: () => chain.state().reachable } : {}),
  })
}

/** SETTLE_MODE=deferred: the background settlements, reported in /metrics. */
export function deferredSettlements(
  config: Readonly<Config>,
  settler: Settler,
  ledger: PaymentLedger,
  reconciler: Reconciler | undefined,
  metrics: Metrics,
  logger: Logger,
): DeferredSettlements | undefined {
  // Deferred needs an on-chain mode (config.ts), and every on-chain mode has its reconciler.
  if (config.settleMode !== 'deferred' || !reconciler) return undefined
  const deferred = new DeferredSettlements(
    { settler, ledger, reconciler, metrics: metrics.payment, logger },
    {
      maxUnsettledAtomic: usdToAtomic(config.deferred.maxUnsettledUsd),
      maxPriceAtomic: config.deferred.maxPriceUsd === null ? null : usdToAtomic(config.deferred.maxPriceUsd),
      concurrency: config.deferred.concurrency,
    },
  )
  metrics.watchDeferred(() => deferred.stats())
  logger.info('settlement deferred: answers are released on verification and settled in the background', {
    max_unsettled_per_payer_usd: config.deferred.maxUnsettledUsd,
    max_price_usd: config.deferred.maxPriceUsd,
    concurrency: config.deferred.concurrency,
  })
  return deferred
}
