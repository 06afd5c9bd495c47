import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { cacheDirs } from '../core/cache-dirs'
import { ConfigError } from '../core/config-error'
import { readPublicKeys } from '../data/publication'
import { read } from './read'

/** The publication a datasets folder follows (Config.dataSource). */
export interface DataSource {
  url: string
  /** DATA_SOURCE_PUBLIC_KEY as given: PEM text or a file (read when the follower starts). */
  publicKeys: string
  pollSeconds: number
}

/**
 * DATA_SOURCE_URL and what goes with it. A follower's folder defaults to one per URL in the cache
 * folder: never the shipped datasets/ (it holds sample data the follower would refuse to serve).
 */
export function readDataSource(env: Record<string, string | undefined>): { datasetsDir: string; dataSource?: DataSource } {
  const dir = read(env, 'DATASETS_DIR') as string | undefined
  const url = read(env, 'DATA_SOURCE_URL') as string | undefined
  const publicKeys = read(env, 'DATA_SOURCE_PUBLIC_KEY') as string | undefined
  const pollSeconds = (read(env, 'DATA_POLL_SECONDS') as number | undefined) ?? 60
  if (!url) {
    if (publicKeys) throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', 'has no effect without DATA_SOURCE_URL')
    return { datasetsDir: resolve(dir ?? 'datasets') }
  }
  if (!publicKeys)
    throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', "is required with DATA_SOURCE_URL: the publisher's Ed25519 public key (PEM or a file)")
  try {
    readPublicKeys(publicKeys)
  } catch (error) {
    throw new ConfigError('DATA_SOURCE_PUBLIC_KEY', (error as Error).message)
  }
  const folder = `source-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`
  return { datasetsDir: resolve(dir ?? join(cacheDirs(env)[0]!, folder)), dataSource: { url, publicKeys, pollSeconds } }
}
