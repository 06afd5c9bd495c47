/** `data publish`: sign a datasets folder's current versions and publish them, or `--verify` a target (cli/data.ts dispatches). */
import type { KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { folderVocabulary } from '../composition'
import {
  EVIDENCE,
  formatTargetReport,
  publishDatasets,
  publishTarget,
  type PublishTarget,
  readPrivateKey,
  readPublicKeys,
  verifyTarget,
} from '../data'
import { ensureCorpusIndex } from '../intelligence'
import { UsageError, withDb, type Flags } from './data-common'

export async function publish(args: string[], dir: string, flags: Flags): Promise<number> {
  if (args.length > 1) throw new UsageError('publish takes at most one folder')
  if (!flags.to) throw new UsageError('publish needs --to <folder | s3://bucket/prefix>')
  if (flags.verify) return verify(args[0] ? resolve(args[0]) : dir, flags.to, flags)
  if (!flags.key) throw new UsageError('publish needs --key <Ed25519 private key PEM> (openssl genpkey -algorithm ed25519)')
  const folder = args[0] ? resolve(args[0]) : dir
  let key: KeyObject
  let target: PublishTarget
  try {
    key = readPrivateKey(flags.key)
    target = publishTarget(flags.to)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const result = await withDb((db) =>
    publishDatasets(db, folder, target, {
      key,
      ...(flags.note ? { note: flags.note } : {}),
      // The corpus's index ships with it (built now if it is missing): no instance builds it again.
      indexOf: async (dataset) =>
        dataset === EVIDENCE.name ? (await ensureCorpusIndex(db, folder, () => folderVocabulary(db, folder))).path : null,
    }),
  )
  const { publication } = result
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  }
  if (!result.changed) {
    const repaired = result.uploaded.map(
      (u) => `\n  ${u.file}: ${u.was === 'missing' ? 'was missing' : `held other bytes (${u.was})`}, uploaded again`,
    )
    process.stdout.write(
      `${target.name} already publishes these versions (publication ${publication.sequence}); ${repaired.length ? `${repaired.length} file(s) repaired:${repaired.join('')}` : 'every file intact, nothing written.'}\n`,
    )
    return 0
  }
  const bytes = result.uploaded.reduce((sum, u) => sum + u.bytes, 0)
  process.stdout.write(
    [
      `publication ${publication.sequence} -> ${target.name}, signed by ${publication.key_id} at ${publication.published_at}`,
      ...Object.entries(publication.datasets).map(
        ([name, d]) => `  ${name.padEnd(16)} ${d.version}  ${d.rows} rows  ${d.period.from}..${d.period.to}`,
      ),
      `  uploaded ${result.uploaded.length} file(s), ${bytes} bytes; removed ${result.pruned.length} file(s) no publication names`,
    ].join('\n') + '\n',
  )
  return 0
}

/** A public key (the PEM, or a file holding it) checks the signature as well as the private one. */
const verifyingKey = (value: string): KeyObject => {
  const text = value.includes('-----BEGIN') || !existsSync(value) ? value : readFileSync(value, 'utf8')
  return text.includes('PUBLIC KEY-----') ? [...readPublicKeys(value).values()][0]! : readPrivateKey(value)
}

async function verify(folder: string, to: string, flags: Flags): Promise<number> {
  let key: KeyObject | undefined
  let target: PublishTarget
  try {
    // The public key is enough to check the signature (a monitor need not hold the signing key).
    key = flags.key ? verifyingKey(flags.key) : undefined
    target = publishTarget(to)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const report = await verifyTarget(folder, target, key)
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatTargetReport(report).join('\n')}\n`)
  return report.ok ? 0 : 1
}
