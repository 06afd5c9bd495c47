import { ConfigError, loadConfig, type Config } from '../config'
import { createRuntime } from '../runtime'
import { DatasetUnavailableError } from '../data/datasets'
import { NETWORKS } from '../payments/networks'
import { CATALOG } from '../catalog'
import pkg from '../../package.json' with { type: 'json' }

const PAYMENT_MODE_TEXT: Record<Config['paymentMode'], (c: Readonly<Config>, facilitator?: { url: string; auth: string }) => string> = {
  local: () => 'verified offline, NOT settled (local mode: development only)',
  // The facilitator's URL and how calls authenticate (key id, header names: never a secret or a header value).
  facilitator: (_c, f) => `verified and settled by the facilitator at ${f?.url} (facilitator mode; ${f?.auth})`,
  self: (c) => `verified and settled in-process over ${new URL(c.rpcUrl).origin} (self mode)`,
}

/** `serve`: start the HTTP service; SIGTERM/SIGINT stop accepting, let requests in flight finish, then exit 0. */
export async function serve(_args: string[]): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(2)
    }
    throw e
  }
  let runtime
  try {
    runtime = await createRuntime(config)
  } catch (e) {
    // A datasets folder without every dataset of this release (or with a missing file) is an operator's
    // fix, not a crash: say what is missing and where.
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(2)
    }
    if (e instanceof DatasetUnavailableError) {
      console.error(`Datasets error: ${e.message} (DATASETS_DIR=${config.datasetsDir}). Start the folder as a copy of the shipped datasets/ and replace files with \`data import\`.`)
      process.exit(2)
    }
    throw e
  }
  runtime.app.listen({ port: config.port, hostname: config.host })
  const server = runtime.app.server!
  const network = NETWORKS[config.network]
  const banner = [
    `china-market-intel ${pkg.version} listening on http://${config.host}:${server.port} (public ${config.publicBaseUrl})`,
    `  payment: x402 exact, ${network.name} (${network.caip2}), USDC ${network.asset}, ${PAYMENT_MODE_TEXT[config.paymentMode](config, runtime.facilitator)}`,
    config.payToIsDevDefault
      ? `  payTo:   ${config.payTo}  <- DEVELOPMENT address (anvil test account); set PAY_TO to receive payments`
      : `  payTo:   ${config.payTo}`,
    `  routes:  ${CATALOG.length} paid routes; docs at ${config.publicBaseUrl}/openapi`,
    ...(config.trustedProxies ? [`  clients: from ${config.trustedProxies.header} when the peer is ${config.trustedProxies.description} (TRUSTED_PROXIES), else the peer`] : []),
  ]
  console.error(banner.join('\n'))

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    runtime.logger.info('shutting down', { signal })
    // Bun's server.stop() without `true` closes the listener at once and resolves when every request in
    // flight is answered; idle keep-alive connections do not hold it (test/build/shutdown.test.ts).
    await runtime.app.stop()
    runtime.close()
    runtime.logger.flush()
    process.exit(0)
  }
  // SIGHUP: pick up a new manifest.json now instead of at the next poll.
  process.on('SIGHUP', () => void runtime.store.reload())
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
