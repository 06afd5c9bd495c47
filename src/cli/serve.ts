import { ConfigError, redactedMessage } from '../core'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { type Config, isCompiled, loadConfig, loadEnvFile } from '../config'
import { createRuntime, metricsAccess, type Runtime } from '../composition'
import { DatasetUnavailableError, SourceUnavailableError } from '../data'
import { CATALOG } from '../catalog'
import { Drain, nativeRoutes, readingWholeUpload, RequestLog, STRONG_TOKEN_BITS, tokenBits } from '../http'
import { EXIT_CANNOT_LISTEN, ListenError, listen, type Listening } from './listen'
import { stopServing } from './shutdown'
import { redactUrl } from '../postgres'
import { signatureRecovery } from '../payments'
import { configHints, liveSetup, setupLines, summariserOf } from '../intelligence'
import pkg from '../../package.json' with { type: 'json' }

const PAYMENT_MODE_TEXT: Record<Config['paymentMode'], (config: Readonly<Config>, facilitator?: { url: string; auth: string }) => string> =
  {
    local: () => 'verified offline, NOT settled (local mode: development only)',
    // The facilitator's URL and how calls authenticate (key id, header names: never a secret or a header value).
    facilitator: (_c, f) => `verified and settled by the facilitator at ${f?.url} (facilitator mode; ${f?.auth})`,
    self: (c) => `verified and settled in-process over ${new URL(c.rpcUrl).origin} (self mode)`,
  }

/** The configuration; an invalid one exits 2. */
function loadConfigOrExit(): Readonly<Config> {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
}

/** The runtime; a bad configuration or datasets folder exits 2. */
async function createRuntimeOrExit(config: Readonly<Config>): Promise<Runtime> {
  try {
    return await createRuntime(config)
  } catch (error) {
    // A datasets folder without every dataset of this release (or with a missing file) is an operator's
    // fix, not a crash: say what is missing and where.
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`)
      process.exit(2)
    }
    if (error instanceof DatasetUnavailableError) {
      console.error(
        config.dataSource
          ? `Datasets error: ${error.message} (DATASETS_DIR=${config.datasetsDir}). The instance starts once it holds a verified publication; check the URL, the key and the publication (\`data publish\`).`
          : `Datasets error: ${error.message} (DATASETS_DIR=${config.datasetsDir}). Start the folder as a copy of the shipped datasets/ and replace files with \`data import\`.`,
      )
      // An unreachable source is temporary: not the "fix the configuration" status a process manager gives up on.
      process.exit(error instanceof SourceUnavailableError && error.reason === 'unreachable' ? EXIT_TEMPFAIL : 2)
    }
    throw error
  }
}

/** sysexits.h EX_TEMPFAIL: try again later (systemd's Restart= does; RestartPreventExitStatus=2 does not stop it). */
const EXIT_TEMPFAIL = 75

/**
 * Our own Bun.serve (not Elysia's listen, whose route table it rebuilds): no silent SO_REUSEPORT, and
 * every request in flight is tracked by `drain` for the shutdown deadline. Cannot listen: exit 3.
 *
 * Where every request's path begins (docs/development.md, "A paid request's path"): Bun's native route
 * table, with two entrances. The unpaid fast path answers a repeat of an unpaid GET with its remembered
 * 402 before the framework parses anything (`runtime.app.unpaid`, http/unpaid-answers.ts); everything
 * else goes through the app (composition/app.ts) and, for a paid route, the paid call (paid-call/call.ts).
 */
function listenOrExit(config: Readonly<Config>, runtime: Runtime, drain: Drain): Listening {
  try {
    return listen({
      host: config.host,
      port: config.port,
      reusePort: config.reusePort,
      ledgerPath: config.ledgerPath,
      fetch: drain.wrap(readingWholeUpload(runtime.app.fetch)),
      routes: nativeRoutes(runtime.app, (h) => drain.wrap(readingWholeUpload(h)), runtime.app.unpaid),
    })
  } catch (error) {
    if (!(error instanceof ListenError)) throw error
    console.error(error.message)
    runtime.close()
    process.exit(EXIT_CANNOT_LISTEN)
  }
}

/** BATCH_NETWORKS: where batch-settlement is offered beside exact, its receiver-authorizer (the address, never the key). */
function batchLine(config: Readonly<Config>, offers: Runtime['offers']): string[] {
  const batch = offers.filter((offer) => offer.batch)
  if (!config.batch || batch.length === 0) return []
  const { receiverAuthorizer, withdrawDelaySeconds } = batch[0]!.batch!
  const names = batch.map((offer) => offer.network.name).join(', ')
  return [
    `  batch:   x402 batch-settlement on ${names}: receiver-authorizer ${receiverAuthorizer}, withdraw delay ${withdrawDelaySeconds} s, claimed every ${config.batch.claimSeconds} s`,
  ]
}

/** What the service printed on start: where it listens, how it is paid, its providers, ledger and settings files. */
function startupBanner(config: Readonly<Config>, runtime: Runtime, port: number | undefined): string {
  const envFile = loadEnvFile()
  const dotenv = resolve('.env')
  const recovery = signatureRecovery()
  const offers = runtime.offers
  const networks = offers.map(({ network }) => `${network.name} (${network.caip2}), USDC ${network.asset}`).join('; ')
  const payTo =
    new Set(offers.map((o) => o.payTo)).size === 1 ? offers[0]!.payTo : offers.map((o) => `${o.payTo} on ${o.network.name}`).join(', ')
  const banner = [
    `china-market-intel ${pkg.version} listening on http://${config.host}:${port} (public ${config.publicBaseUrl})`,
    `  payment: x402 exact, ${networks}, ${PAYMENT_MODE_TEXT[config.paymentMode](config, runtime.facilitator)}`,
    ...batchLine(config, offers),
    config.payToIsDevDefault
      ? `  payTo:   ${payTo}  <- DEVELOPMENT address (anvil test account); set PAY_TO to receive payments`
      : `  payTo:   ${payTo}`,
    `  ecdsa:   ${recovery.implementation} recovers payment signers${recovery.native_error ? ` (libsecp256k1 did not load: ${recovery.native_error})` : ''}`,
    `  routes:  ${CATALOG.length} paid routes; docs at ${config.publicBaseUrl}/openapi`,
    ...setupLines(runtime.live ? liveSetup(runtime.live) : { mode: 'sample', model: summariserOf(config.providers)?.name ?? null }),
    ...configHints(config.providers).map((h) => `  hint:     ${h}`),
    ...(config.metricsToken && tokenBits(config.metricsToken) < STRONG_TOKEN_BITS
      ? [
          `  hint:     METRICS_TOKEN is weak (about ${tokenBits(config.metricsToken)} bits, under ${STRONG_TOKEN_BITS}) and guards revenue: make one with \`openssl rand -hex 32\``,
        ]
      : []),
    ...(config.trustedProxies
      ? [
          `  clients: from ${config.trustedProxies.header} when the peer is ${config.trustedProxies.description} (TRUSTED_PROXIES), else the peer`,
        ]
      : []),
    ...(metricsAccess(config).metricsAccess === 'off'
      ? ['  metrics: /metrics is off: set METRICS_TOKEN to scrape it (it shows revenue; docs/operations.md)']
      : []),
    config.metricsToken
      ? `  console: ${config.publicBaseUrl}/console (sign in at /console/sign-in with METRICS_TOKEN)`
      : metricsAccess(config).metricsAccess === 'off'
        ? '  console: off: set METRICS_TOKEN to sign in at /console/sign-in (docs/operations.md)'
        : `  console: ${config.publicBaseUrl}/console, open without signing in (development, no METRICS_TOKEN)`,
    ...(config.reusePort ? [`  port:    shared (REUSE_PORT) with the instances registered in ${config.ledgerPath}`] : []),
    `  ledger:  ${runtime.shared ? `PostgreSQL ${redactUrl(config.ledgerUrl!)} (shared; instance ${runtime.shared.registry.id})` : config.ledgerPath === ':memory:' ? 'in memory (LEDGER_PATH=:memory:)' : `SQLite ${config.ledgerPath}`}`,
    ...(runtime.follower
      ? [
          `  data:    publication ${runtime.follower.status().serving?.sequence} of ${runtime.follower.status().source}, checked every ${config.dataSource!.pollSeconds} s (copy in ${config.datasetsDir})`,
        ]
      : []),
    ...(envFile ? [`  env:     settings read from ${envFile}`] : []),
    ...(!isCompiled() && existsSync(dotenv) ? [`  env:     ${dotenv} read by Bun (running from source)`] : []),
  ]
  return banner.join('\n')
}

/**
 * `serve`: start the HTTP service; SIGTERM/SIGINT stop accepting, let requests in flight finish for up to
 * SHUTDOWN_TIMEOUT_SECONDS, answer the rest 503, then exit 0. Exit 2: bad configuration or datasets;
 * 3: cannot listen (port in use, HOST not local, port sharing refused).
 */
export async function serve(_args: string[]): Promise<void> {
  const config = loadConfigOrExit()
  const runtime = await createRuntimeOrExit(config)
  const drain = new Drain()
  const listening = listenOrExit(config, runtime, drain)
  const server = listening.server
  // Handlers reach the server (for the client's IP: rate limits) through Elysia's `app.server`.
  runtime.app.server = server as unknown as typeof runtime.app.server
  console.error(startupBanner(config, runtime, server.port))

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    runtime.logger.info('shutting down', { signal, timeout_seconds: config.shutdownTimeoutMs / 1000 })
    const log = new RequestLog(runtime.logger, runtime.metrics)
    await stopServing({
      server,
      drain,
      gate: runtime.gate,
      ledger: runtime.ledger,
      log,
      logger: runtime.logger,
      timeoutMs: config.shutdownTimeoutMs,
    })
    listening.unregister()
    await runtime.close()
    runtime.logger.flush()
    process.exit(0)
  }
  // The indexes were building while the service started listening (/ready: `building`; paid requests
  // wait for them). A build that fails leaves nothing to serve: exit 2, as for a bad datasets folder.
  runtime.store.loaded.then(
    () => {
      const { file, built } = runtime.store.current().evidence.index
      // The corpus's index is built once per version: the operator sees when this start built it, and how long it took.
      runtime.logger.info('datasets indexed: ready', {
        ms_since_start: Math.round(performance.now()),
        evidence_posts: file.posts,
        ...(built ? { evidence_index_built_ms: Math.round(built.ms) } : {}),
      })
    },
    (error: unknown) => {
      if (stopping) return
      console.error(
        `Datasets error: cannot index the datasets: ${error instanceof Error ? error.message : String(error)} (DATASETS_DIR=${config.datasetsDir}).`,
      )
      process.exit(2)
    },
  )
  // A library that starts a promise and leaves it unawaited (@x402/evm's asset check did: one buyer's
  // proof during an RPC outage ended the process) must not take the service down: logged, not fatal.
  process.on('unhandledRejection', (reason: unknown) => {
    runtime.metrics.unhandledRejections.inc()
    runtime.logger.error('unhandled rejection (kept running)', { error: redactedMessage(reason) })
  })
  // SIGHUP: pick up a new manifest.json now instead of at the next poll.
  process.on('SIGHUP', () => void runtime.store.reload())
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
