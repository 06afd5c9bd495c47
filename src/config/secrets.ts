import { keepSecret, keepUrlSecrets } from '../core'
import type { CdpApiKey } from '../payments'
import type { ProviderSettings } from '../intelligence'

/** What of the configuration (config.ts, Config) holds secrets. */
interface HoldsSecrets {
  settlerPrivateKey?: string
  batch?: { authorizerKey: string }
  cdpApiKey?: CdpApiKey
  metricsToken?: string
  facilitatorHeaders?: Record<string, string>
  facilitatorUrl?: string
  rpc: Readonly<Partial<Record<string, { url: string }>>>
  reconcileRpc: Readonly<Record<string, string>>
  ledgerUrl?: string
  dataSource?: { url: string }
  providers: ProviderSettings
}

/**
 * Every secret the configuration holds, remembered for core/redact.ts as soon as it is read, so each
 * command (the service, doctor, providers check, data, payments) redacts the same values: keys, tokens,
 * passwords, and whatever the configured URLs carry in their user, path or query (an RPC's key in its
 * path, a search endpoint's `?apikey=`, a ledger's `?password=`).
 */
export function keepSecretsOf(config: Readonly<HoldsSecrets>, env: Record<string, string | undefined>): void {
  const { webSearch, nativeSearch, llm } = config.providers
  keepSecret(
    config.settlerPrivateKey,
    config.batch?.authorizerKey,
    config.cdpApiKey?.secret.reveal(),
    config.metricsToken,
    ...Object.values(config.facilitatorHeaders ?? {}),
    webSearch?.key,
    nativeSearch?.key,
    llm?.key,
    // Read by Bun's S3 client for an s3:// data source or publication target.
    env.AWS_SECRET_ACCESS_KEY,
    env.AWS_SESSION_TOKEN,
  )
  keepUrlSecrets(
    config.facilitatorUrl,
    ...Object.values(config.rpc).map((rpc) => rpc?.url),
    ...Object.values(config.reconcileRpc),
    config.ledgerUrl,
    config.dataSource?.url,
    webSearch?.url,
    nativeSearch?.url,
    llm?.baseUrl,
  )
}
