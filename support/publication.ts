/**
 * The real places a publication lives in tests: a folder served by a throwaway nginx (Debian's), and a
 * bucket of s3rver (an S3-compatible server from npm, test/parts), both started here. Plus the data
 * team's side: a copy of the shipped datasets to publish from, and Ed25519 key pairs.
 */
import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nginxBinary, startNginx, type StartedNginx } from './nginx'
import { freePort } from './ports'
import { datasetsCopy } from './temp-dirs'

export interface KeyPair {
  privatePem: string
  publicPem: string
}

export function keyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  }
}

/** A data team's folder: a private copy of the shipped datasets. */
export const teamFolder = (): string => datasetsCopy('team-')

export { nginxBinary }

/** nginx serving `root` as static files (ETag and If-None-Match as it does by default), with a /health for the start-up check. */
export async function serveFolder(binary: string, root: string): Promise<StartedNginx> {
  mkdirSync(root, { recursive: true })
  const port = await freePort()
  const site = `server {
    listen 127.0.0.1:${port};
    root ${root};
    location = /health { return 200 "ok"; }
    location / { }
}
`
  return startNginx(binary, site, port)
}

export interface StartedS3 {
  endpoint: string
  bucket: string
  /** AWS_* settings for the publisher and the instances. */
  env: Record<string, string>
  stop(): Promise<void>
}

/** s3rver on a free port with one bucket, its objects in a temp folder. */
export async function startS3(bucket = 'publications'): Promise<StartedS3> {
  const { default: S3rver } = await import('s3rver')
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({
    port: await freePort(),
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  })
  const { port } = (await server.run()) as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    // s3rver's fixed credentials.
    env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' },
    async stop() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
