import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { alignedColumns } from './columns'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  builtFromSummary,
  builtinDatasets,
  contractForFile,
  datasetContract,
  type DatasetContract,
  DATASETS,
  DEFAULT_MAX_DROP_PERCENT,
  DELIVERY_FILE,
  deliveryFormat,
  DuckDb,
  EVIDENCE,
  formatReport,
  importDataset,
  PublishError,
  readManifest,
  RefreshError,
  refusedReport,
  rollbackDataset,
  SIGNAL_BRANDS,
  SIGNAL_CREATORS,
  SIGNAL_TOPICS,
  validateDelivery,
  type ValidationReport,
} from '../data'
import { ensureCorpusIndex } from '../intelligence'
import { UsageError, withDb, type Flags } from './data-common'
import { publish } from './data-publish'
import { folderVocabulary } from '../composition'

const USAGE = `Usage: china-market-intel data <command>

  list                                   datasets of the folder: current version, rows, period, what it was built
                                         from, earlier versions
  validate <file|dir>...                 read every value of deliveries (.parquet, .csv, .csv.gz; a folder: every such
                                         file in it) and check them against their dataset's contract; every file
                                         gets a report
  import <file>                          validate a delivery and merge it into the dataset's current version: its
                                         months (weeks) are added or replace the same ones, the rest is kept
  rollback <dataset>                     make the previous version current again
  index                                  build the search index of the folder's evidence version (import does it
                                         for a new version; the service builds a missing one at its first load)
  publish [folder] --to <target> --key <pem>
                                         sign the folder's current versions (default: --dir) and publish them to
                                         a folder (served by a web server) or s3://bucket/prefix; instances with
                                         DATA_SOURCE_URL install them once the signature and every checksum hold;
                                         a file the target holds other bytes of is uploaded again
  publish [folder] --to <target> --verify
                                         check, writing nothing, what the target serves: its document (signed by
                                         --key, when given), every file it names (size and checksum), whether it
                                         publishes the folder's current versions; exit status 1 when it does not

Options:
  --dir <folder>       datasets folder (default: $DATASETS_DIR; from source, else var/datasets, a copy of the
                       shipped sample made on first use, which npm start serves too)
  --dataset <name>     the dataset a file is for, when its name does not say (${DATASETS.map((d) => d.name).join(', ')})
  --replace            import: the file becomes the whole dataset instead of being merged;
                       validate: check the file as a whole dataset (no missing month or week)
  --max-drop <percent> import: a merge may leave a replaced month (week) with at most this share fewer rows
                       than it has now (default ${DEFAULT_MAX_DROP_PERCENT})
  --sample             import: the file is generated sample data (data_quality says so)
  --notice <text>      import: caveat shown in every answer's data_quality for this version
  --json               list/validate/publish: machine-readable output
  --to <target>        publish: a folder, file:// URL or s3://bucket/prefix (AWS_ACCESS_KEY_ID,
                       AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL for other S3-compatible services)
  --key <pem>          publish: the Ed25519 private key (a file, or the PEM itself); make one with
                       openssl genpkey -algorithm ed25519 -out publisher.pem, and give instances its public key
                       (openssl pkey -in publisher.pem -pubout) as DATA_SOURCE_PUBLIC_KEY
  --note <text>        publish: a note carried in the publication
  --verify             publish: check the target without writing (--key optional, the public key will do: the
                       signature is then checked)

A running service picks up an import or a rollback within DATASETS_RELOAD_SECONDS, without a restart.
A fleet's instances follow a publication instead (DATA_SOURCE_URL): a rollback reaches them as a new
publication (rollback here, then publish).
Exit status: 0 ok, 1 invalid file, failed change or a target not as published (--verify), 2 usage error.
`

/** The weekly signals: the corpus's index is built knowing their entities' names. */
const SIGNALS: readonly DatasetContract[] = [SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS]

/** After a usage error: the one thing that is wrong, then where the rest is (not the whole usage text). */
const MORE = '(`data --help` lists the commands and options)\n'

function namedContract(name: string): DatasetContract {
  const contract = datasetContract(name)
  if (!contract) throw new UsageError(`unknown dataset "${name}"; datasets: ${DATASETS.map((d) => d.name).join(', ')}`)
  return contract
}

const UNKNOWN_DATASET = 'name it <dataset>*.parquet (.csv, .csv.gz) or pass --dataset'

function contractOf(file: string, name: string | undefined): DatasetContract {
  if (name !== undefined) return namedContract(name)
  const contract = contractForFile(file)
  if (!contract) throw new UsageError(`cannot tell which dataset ${file} is for; ${UNKNOWN_DATASET}`)
  return contract
}

/** Files named on the command line; a folder stands for the deliveries in it (`.parquet`, `.csv`, `.csv.gz`, in any case). */
function candidateFiles(paths: string[]): string[] {
  return paths.flatMap((path) =>
    existsSync(path) && statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => DELIVERY_FILE.test(f) && !f.startsWith('.'))
          .sort()
          .map((f) => join(path, f))
      : [path],
  )
}

/** Every file gets a report: a file whose dataset cannot be told, or that could not be checked, is refused. */
async function validateAll(files: string[], dataset: string | undefined, wholeDataset: boolean): Promise<ValidationReport[]> {
  const named = dataset === undefined ? undefined : namedContract(dataset)
  // A CSV is checked through the Parquet file DuckDB converts it to, written here and removed after.
  const scratch = mkdtempSync(join(tmpdir(), 'data-validate-'))
  try {
    return await withDb(async (db) => {
      const out = []
      for (const [i, file] of files.entries()) {
        const contract = named ?? contractForFile(file)
        if (!contract)
          out.push(
            refusedReport(file, '', {
              rule: 'dataset',
              message: `cannot tell which dataset this file is for (${DATASETS.map((d) => d.name).join(', ')}); ${UNKNOWN_DATASET}`,
            }),
          )
        else {
          const options = { format: deliveryFormat(file), staging: join(scratch, `${i}.parquet`), wholeDataset }
          out.push(
            await validateDelivery(db, file, contract, options).then(
              (r) => r.report,
              (e) =>
                refusedReport(file, contract.name, {
                  rule: 'error',
                  message: `could not be checked: ${(e as Error).message.split('\n')[0]}`,
                }),
            ),
          )
        }
      }
      return out
    })
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

export async function data(args: string[]): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        dataset: { type: 'string' },
        sample: { type: 'boolean' },
        notice: { type: 'string' },
        replace: { type: 'boolean' },
        'max-drop': { type: 'string' },
        to: { type: 'string' },
        key: { type: 'string' },
        note: { type: 'string' },
        json: { type: 'boolean' },
        verify: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${MORE}`)
    process.exit(2)
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE)
    return
  }
  const dir = resolve(values.dir ?? process.env.DATASETS_DIR ?? 'datasets')
  try {
    process.exitCode = await run(command, rest, dir, values)
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${MORE}`)
      process.exitCode = 2
    } else if (error instanceof RefreshError || error instanceof PublishError) {
      process.stderr.write(`${error.message}\n`)
      if (error.report) process.stderr.write(`${formatReport(error.report).join('\n')}\n`)
      process.exitCode = 1
    } else {
      process.stderr.write(`${(error as Error).message}\n`)
      process.exitCode = 1
    }
  }
}

/** `--max-drop`: a percent from 0 to 100. */
function maxDrop(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const percent = Number(value.replace(/%$/, ''))
  if (value.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100)
    throw new UsageError(`--max-drop takes a percent from 0 to 100, not "${value}"`)
  return percent
}

async function run(command: string, args: string[], dir: string, flags: Flags): Promise<number> {
  if ((command === 'import' || command === 'rollback') && dir === builtinDatasets.dir) {
    throw new UsageError(
      `${command} changes a datasets folder; the datasets built into this executable are a read-only copy. Set DATASETS_DIR (or --dir) to the data team's folder, and run the service with the same DATASETS_DIR.`,
    )
  }
  if ((command === 'import' || command === 'rollback') && existsSync(join(dir, 'manifest.json'))) {
    const followed = readManifest(dir).publication
    if (followed)
      throw new UsageError(
        `${dir} is an instance's copy of the publication ${followed.source}: ${command} in the publishing folder, then \`data publish\` it`,
      )
  }
  switch (command) {
    case 'list':
      return list(dir, flags.json)
    case 'validate': {
      if (args.length === 0) throw new UsageError('validate needs a file or a folder')
      const files = candidateFiles(args)
      if (files.length === 0) throw new UsageError(`no .parquet, .csv or .csv.gz files in ${args.join(', ')}`)
      const reports = await validateAll(files, flags.dataset, flags.replace ?? false)
      if (flags.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`)
      else process.stdout.write(`${reports.flatMap(formatReport).join('\n')}\n`)
      return reports.some((r) => r.violations.length > 0) ? 1 : 0
    }
    case 'import': {
      if (args.length !== 1) throw new UsageError('import takes exactly one file')
      const file = resolve(args[0]!)
      const contract = contractOf(file, flags.dataset)
      const options = { sample: flags.sample, notice: flags.notice, replace: flags.replace, maxDropPercent: maxDrop(flags['max-drop']) }
      if (flags.replace && options.maxDropPercent !== undefined)
        throw new UsageError('--max-drop applies to a merge; --replace replaces the whole dataset')
      const result = await withDb(async (db) => {
        const imported = await importDataset(db, dir, file, contract, options)
        // A new corpus version is searched through its index: built now, not at the service's next load.
        if (!imported.unchanged) await refreshCorpusIndex(dir, contract, db)
        return imported
      })
      process.stdout.write(`${formatReport(result.report).join('\n')}\n`)
      process.stdout.write(
        result.unchanged
          ? `${contract.name} is already at ${result.entry.version}; nothing changed.\n`
          : `${contract.name}: ${result.previous?.version ?? '(none)'} -> ${result.entry.version} (${result.entry.rows} rows, ${result.entry.period.from} to ${result.entry.period.to}) in ${dir}\n` +
              `  built from: ${builtFromSummary(result.entry)}\n`,
      )
      return 0
    }
    case 'rollback': {
      if (args.length !== 1) throw new UsageError('rollback takes a dataset name')
      const contract = datasetContract(args[0]!)
      if (!contract) throw new UsageError(`unknown dataset "${args[0]}"`)
      const { from, to } = await rollbackDataset(dir, contract)
      process.stdout.write(`${contract.name}: ${from.version} -> ${to.version} (rolled back) in ${dir}\n`)
      // The rollback stands; an index that could not be built is said apart (the service builds it, or `data index`).
      try {
        await refreshCorpusIndex(dir, contract)
      } catch (error) {
        process.stderr.write(`the corpus's search index was not built: ${(error as Error).message} (run \`data index\`)\n`)
        return 1
      }
      return 0
    }
    case 'publish':
      return publish(args, dir, flags)
    case 'index': {
      if (args.length) throw new UsageError('index takes no argument (the folder is --dir)')
      const index = await withDb((db) => ensureCorpusIndex(db, dir, () => folderVocabulary(db, dir)))
      process.stdout.write(
        `${index.path}: ${index.posts} posts, ${index.built ? `built in ${(index.built.ms / 1000).toFixed(1)} s` : 'already built'}\n`,
      )
      return 0
    }
    default:
      throw new UsageError(`unknown data command "${command}"`)
  }
}

/**
 * After an import or a rollback: the corpus's search index, built now for a new corpus version, and
 * again for new weekly signals (it is built knowing their names: corpus-vocabulary.ts), not at the
 * service's next load.
 */
async function refreshCorpusIndex(dir: string, contract: DatasetContract, db?: DuckDb): Promise<void> {
  if (contract !== EVIDENCE && !SIGNALS.includes(contract)) return
  const build = (duck: DuckDb) => ensureCorpusIndex(duck, dir, () => folderVocabulary(duck, dir))
  await (db ? build(db) : withDb(build))
}

function list(dir: string, json: boolean | undefined): number {
  const manifest = readManifest(dir)
  if (json) {
    process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`)
    return 0
  }
  const rows = DATASETS.map((contract) => {
    const entry = manifest.datasets[contract.name]
    const earlier = (manifest.history?.[contract.name] ?? []).map((h) => h.version).join(', ') || '-'
    return entry
      ? [
          contract.name,
          entry.version,
          String(entry.rows),
          `${entry.period.from}..${entry.period.to}`,
          (entry.sample ?? manifest.sample) ? 'sample' : 'imported',
          builtFromSummary(entry),
          earlier,
        ]
      : [contract.name, '(missing)', '', '', '', '', '']
  })
  const header = ['dataset', 'version', 'rows', 'period', 'kind', 'built from', 'earlier versions (rollback)']
  process.stdout.write(`${dir}\n${alignedColumns([header, ...rows], (column) => column === 2)}\n`)
  return 0
}
