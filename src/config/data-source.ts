import { createHash } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { cacheDirs, ConfigError } from '../core'
import { readPublicKeys } from '../data'
import { read } from './read'
import { ENV } from './settings'

/** The publication a datasets folder follows (Config.dataSource). */
export interface DataSource {
  url: string
  /** DATA_SOURCE_PUBLIC_KEY as given: PEM text or a file (read when the follower starts). */
  publicKeys: string
  pollSeconds: number
  /** DATA_SOURCE_REDIRECT_ORIGINS: where the source may redirect besides its own origin. */
  redirectOrigins: readonly string[]
}

/** Where the datasets come from and how they are read (Config). */
export interface DatasetsSettings {
  datasetsDir: string
  datasetsReloadSeconds: number
  /** DATA_SOURCE_URL: the publication the datasets folder follows (data/publish/follow.ts). */
  dataSource?: DataSource
}

/**
 * The datasets folder, how often it is checked, and DATA_SOURCE_URL with what goes with it. A follower's
 * copy defaults to a folder per URL beside the ledger file (the state directory under systemd, the volume
 * in Docker): it holds the highest sequence installed, which must outlive the process for replays to be
 * refused, so it does not belong in a cache. Never the shipped datasets/ (sample data the follower would
 * refuse to serve).
 */
export function readDatasets(env: Record<string, string | undefined>): DatasetsSettings {
  const datasetsReloadSeconds = (read(env, 'DATASETS_RELOAD_SECONDS') as number | undefined) ?? 2
  const dir = read(env, 'DATASETS_DIR') as string | undefined
  const publicKeys = read(env, 'DATA_SOURCE_PUBLIC_KEY') as string | undefined
  const pollSeconds = (read(env, 'DATA_POLL_SECONDS') as number | undefined) ?? 60
  const url = readUrl(env)
  if (!url) {
    if (publicKeys) throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', 'has no effect without DATA_SOURCE_URL')
    return { datasetsDir: resolve(dir ?? 'datasets'), datasetsReloadSeconds }
  }
  if (!publicKeys)
    throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', "is required with DATA_SOURCE_URL: the publisher's Ed25519 public key (PEM or a file)")
  try {
    readPublicKeys(publicKeys)
  } catch (error) {
    throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', (error as Error).message)
  }
  if (env.REUSE_PORT === 'true')
    throw new ConfigError(
      'REUSE_PORT',
      'cannot be used with DATA_SOURCE_URL: the instances on one port would share one copy of the publication; give each instance its own PORT and DATASETS_DIR behind the load balancer',
    )
  // Named after the URL without credentials: rotating a password keeps the copy (and its floor).
  const shown = new URL(url)
  const folder = `datasets-${createHash('sha256').update(`${shown.protocol}//${shown.host}${shown.pathname}`).digest('hex').slice(0, 12)}`
  const ledger = env.LEDGER_PATH?.trim() || 'var/ledger.sqlite'
  const beside = ledger === ':memory:' ? cacheDirs(env)[0]! : dirname(resolve(ledger))
  return {
    datasetsDir: resolve(dir ?? join(beside, folder)),
    datasetsReloadSeconds,
    dataSource: { url, publicKeys, pollSeconds, redirectOrigins: redirectOriginsOf(env) },
  }
}

/** DATA_SOURCE_URL, checked without echoing it: it may carry credentials (https://user:password@…). */
function readUrl(env: Record<string, string | undefined>): string | undefined {
  const raw = env.DATA_SOURCE_URL?.trim()
  if (!raw) return undefined
  try {
    read({ DATA_SOURCE_URL: raw }, 'DATA_SOURCE_URL')
    new URL(raw)
  } catch {
    throw new ConfigError(
      'DATA_SOURCE_URL',
      'invalid value (not shown): expected the https://, http://, s3:// or file:// URL of a publication.json (data publish writes it)',
    )
  }
  return raw
}

/** DATA_SOURCE_REDIRECT_ORIGINS as origins (scheme, host and port), each checked. */
function redirectOriginsOf(env: Record<string, string | undefined>): string[] {
  const raw = read(env, 'DATA_SOURCE_REDIRECT_ORIGINS') as string | undefined
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        const origin = new URL(entry).origin
        if (origin !== 'null' && /^https?:$/.test(new URL(entry).protocol)) return origin
      } catch {
        // reported below
      }
      throw new ConfigError(
        'DATA_SOURCE_REDIRECT_ORIGINS',
        `${JSON.stringify(entry)} is not an http(s) origin such as https://cdn.example.com`,
      )
    })
}
