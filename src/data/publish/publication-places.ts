import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { S3Client } from 'bun'
import { takeLock } from '../import/pid-lock'
import { PUBLICATION_FILE } from './publication'
import { fileSha256 } from '../import/refresh'

/**
 * Where a publication lives: a folder (served by any static web server, or a shared disk), or an
 * S3-compatible bucket. `data publish` writes one (PublishTarget); instances read one by URL
 * (PublicationSource). Names are relative to the publication: its document (PUBLICATION_FILE) and `files/<name>`.
 */

type Env = Record<string, string | undefined>

/** The part size of a multipart upload to a bucket (S3's minimum, and Bun's default). */
export const UPLOAD_PART_BYTES = 5 * 1024 * 1024

/** `s3://bucket/prefix` with the standard AWS settings (AWS_ENDPOINT_URL for another S3-compatible service). */
function s3At(url: URL, env: Env): { client: S3Client; key: (name: string) => string } {
  const bucket = url.hostname
  if (!bucket) throw new Error(`${url.href} names no bucket (s3://bucket/prefix)`)
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '')
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? env.S3_ENDPOINT
  const client = new S3Client({
    bucket,
    ...(endpoint ? { endpoint } : {}),
    ...(env.AWS_ACCESS_KEY_ID ? { accessKeyId: env.AWS_ACCESS_KEY_ID } : {}),
    ...(env.AWS_SECRET_ACCESS_KEY ? { secretAccessKey: env.AWS_SECRET_ACCESS_KEY } : {}),
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
  })
  return { client, key: (name) => (prefix ? `${prefix}/${name}` : name) }
}

export interface PublishTarget {
  /** For messages: the target as the data team wrote it. */
  readonly name: string
  /** A file's text, or null when there is none. */
  readText(name: string): Promise<string | null>
  /** A file's size, or null when there is none. */
  size(name: string): Promise<number | null>
  /** A file's sha256, read whole (a bucket's object is downloaded), or null when there is none. */
  sha256(name: string): Promise<string | null>
  /** The checksum the place keeps of a file without reading it (a bucket's ETag), where it keeps one. */
  etag?(name: string): Promise<string | null>
  upload(name: string, localFile: string): Promise<void>
  /** Replaces a file in one step: a reader sees the old or the new text, never a mix. */
  writeText(name: string, text: string): Promise<void>
  /** Names under `files/`. */
  listFiles(): Promise<string[]>
  remove(name: string): Promise<void>
  /** One publisher at a time where the place allows it (a folder); released by the returned function. */
  lock(): Promise<() => void>
}

export function publishTarget(target: string, env: Env = process.env): PublishTarget {
  if (target.startsWith('s3://')) return s3Target(target, env)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target) && !target.startsWith('file://'))
    throw new Error(`${shownUrl(target)}: publish to a folder (served by a web server) or to s3://bucket/prefix`)
  return folderTarget(target.startsWith('file://') ? fileURLToPath(target) : resolve(target))
}

function folderTarget(dir: string): PublishTarget {
  const path = (name: string) => join(dir, name)
  return {
    name: dir,
    async readText(name) {
      return existsSync(path(name)) ? readFileSync(path(name), 'utf8') : null
    },
    async size(name) {
      return existsSync(path(name)) ? statSync(path(name)).size : null
    },
    async sha256(name) {
      return existsSync(path(name)) ? fileSha256(path(name)) : null
    },
    async upload(name, localFile) {
      mkdirSync(dirname(path(name)), { recursive: true })
      const tmp = `${path(name)}.${process.pid}.partial`
      await Bun.write(tmp, Bun.file(localFile))
      renameSync(tmp, path(name))
    },
    async writeText(name, text) {
      mkdirSync(dir, { recursive: true })
      const tmp = join(dir, `.${name}.${process.pid}.tmp`)
      writeFileSync(tmp, text)
      // Web servers derive ETag and Last-Modified from the size and the modification second: a document
      // of the same size written in the same second would look unchanged to a conditional request.
      const replaced = existsSync(path(name)) ? Math.floor(statSync(path(name)).mtimeMs / 1000) : -1
      const seconds = Math.max(Math.floor(Date.now() / 1000), replaced + 1)
      utimesSync(tmp, seconds, seconds)
      renameSync(tmp, path(name))
    },
    async listFiles() {
      return existsSync(path('files')) ? readdirSync(path('files')).map((f) => `files/${f}`) : []
    },
    async remove(name) {
      rmSync(path(name), { force: true })
    },
    async lock() {
      mkdirSync(dir, { recursive: true })
      return takeLock(path('.publish.lock'), `another \`data publish\` is writing ${dir}`)
    },
  }
}

function s3Target(target: string, env: Env): PublishTarget {
  const { client, key } = s3At(new URL(target), env)
  return {
    name: target,
    async readText(name) {
      const file = client.file(key(name))
      return (await file.exists()) ? await file.text() : null
    },
    async size(name) {
      const file = client.file(key(name))
      return (await file.exists()) ? (await file.stat()).size : null
    },
    async sha256(name) {
      const file = client.file(key(name))
      if (!(await file.exists())) return null
      const hash = createHash('sha256')
      for await (const chunk of file.stream()) hash.update(chunk)
      return hash.digest('hex')
    },
    async etag(name) {
      const file = client.file(key(name))
      return (await file.exists()) ? (await file.stat()).etag : null
    },
    async upload(name, localFile) {
      // Parts of a known size: a multipart object's ETag can then be computed from the local file (publish-check.ts).
      await client.write(key(name), Bun.file(localFile), { partSize: UPLOAD_PART_BYTES })
    },
    async writeText(name, text) {
      // An S3 PUT replaces the object whole: readers get the old or the new one.
      await client.write(key(name), text, { type: 'application/json' })
    },
    async listFiles() {
      const prefix = key('files/')
      const names: string[] = []
      let startAfter: string | undefined
      for (;;) {
        const page = await client.list({ prefix, ...(startAfter ? { startAfter } : {}) })
        const keys = (page.contents ?? []).map((c) => c.key)
        names.push(...keys.map((k) => `files/${k.slice(prefix.length)}`))
        if (!page.isTruncated || keys.length === 0) return names
        startAfter = keys.at(-1)
      }
    },
    async remove(name) {
      await client.delete(key(name))
    },
    // No lock in a bucket: the data team runs one publisher per target (docs/operations.md). Two at once
    // can write two documents under one sequence: instances that installed one refuse the other as a
    // replay, the others install it, until the next publication.
    async lock() {
      return () => {}
    },
  }
}

/** A URL as messages show it: no user, password or query (they may carry credentials). */
const shownUrl = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

/** What a conditional GET needs and gives back: the validators of the last answer processed. */
export interface Validators {
  etag?: string
  lastModified?: string
}

export interface PublicationSource {
  /** The URL without credentials or query, for /ready and logs. */
  readonly shown: string
  /** GET of a publication-relative name, conditional on `since` when given. */
  get(name: string, since: Validators | undefined, signal: AbortSignal): Promise<Response>
}

/** Where an instance reads the publication DATA_SOURCE_URL names (the URL of its document, PUBLICATION_FILE). */
export function publicationSource(url: string, env: Env = process.env, redirectOrigins: readonly string[] = []): PublicationSource {
  const parsed = new URL(url)
  if (!parsed.pathname.endsWith(`/${PUBLICATION_FILE}`)) throw new Error(`${url} does not name a ${PUBLICATION_FILE}`)
  const shown = shownUrl(url)
  const base = new URL('.', parsed)
  const conditional = (since: Validators | undefined) => ({
    ...(since?.etag ? { 'if-none-match': since.etag } : {}),
    ...(since?.lastModified ? { 'if-modified-since': since.lastModified } : {}),
  })
  switch (parsed.protocol) {
    case 'http:':
    case 'https:':
      return {
        shown,
        get: (name, since, signal) =>
          fetchWithinOrigins(new URL(name, base), { headers: conditional(since), signal }, [parsed.origin, ...redirectOrigins]),
      }
    case 's3:': {
      const { client, key } = s3At(new URL(base.href), env)
      // A presigned GET: the same conditional request and streamed body as over HTTP.
      return {
        shown,
        get: (name, since, signal) => fetch(client.presign(key(name), { expiresIn: 900 }), { headers: conditional(since), signal }),
      }
    }
    case 'file:':
      return { shown, get: async (name, since) => fileAnswer(fileURLToPath(new URL(name, base)), since) }
    default:
      throw new Error(`${url}: the data source is an http(s)://, s3:// or file:// URL`)
  }
}

/** Redirects followed at most (as browsers and fetch do, give or take). */
const MAX_REDIRECTS = 5

/**
 * fetch(), following redirects only to the origins allowed (the source's own, DATA_SOURCE_REDIRECT_ORIGINS):
 * a source that redirects elsewhere — an internal address, another service — is refused, saying where.
 */
async function fetchWithinOrigins(url: URL, init: RequestInit, origins: readonly string[]): Promise<Response> {
  let at = url
  for (let hop = 0; ; hop++) {
    const answer = await fetch(at, { ...init, redirect: 'manual' })
    const location = answer.status >= 300 && answer.status < 400 && answer.status !== 304 ? answer.headers.get('location') : null
    if (location === null) return answer
    await answer.body?.cancel()
    const next = new URL(location, at)
    if (!origins.includes(next.origin))
      throw new Error(`redirected to ${next.origin}, which is not the source's origin (allow it with DATA_SOURCE_REDIRECT_ORIGINS)`)
    if (hop === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`)
    at = next
  }
}

/** A shared disk answered like a web server: 404, 304 when size and mtime are those of `since`, else the file. */
function fileAnswer(path: string, since: Validators | undefined): Response {
  if (!existsSync(path)) return new Response(null, { status: 404 })
  const stats = statSync(path)
  const etag = `"${stats.size.toString(16)}-${Math.trunc(stats.mtimeMs).toString(16)}"`
  if (since?.etag === etag) return new Response(null, { status: 304 })
  return new Response(Bun.file(path), { headers: { etag, 'content-length': String(stats.size) } })
}
