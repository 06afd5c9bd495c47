// Builds the single executable dist/china-market-intel (`npm run build`). Embeds DuckDB's shared library
// and every file datasets/manifest.json lists (plus the manifest and the evidence corpus's search index,
// built here if it is missing, so the executable never builds it at start), through a generated entry
// module, so a new dataset needs no change here. Linux with glibc only. The secp256k1 package's prebuilt N-API binding
// needs nothing here: src/payments/chain/secp256k1.ts requires it by a literal path, which bun build embeds.
// Options: --outfile PATH (default dist/china-market-intel), --datasets DIR (default datasets/),
// --report PATH (writes what the executable is made of, as JSON: npm run bench:binary reads it),
// --no-bytecode (to measure what the bytecode costs and saves).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path'
import { DuckDb } from '../src/data/duckdb'
import { ensureCorpusIndex } from '../src/intelligence/corpus/corpus-index-cache'
import { folderVocabulary } from '../src/composition/signals-vocabulary'

const ROOT = resolve(import.meta.dir, '..')
// One entry per build: builds running at once (tests, benchmarks) must not embed each other's files.
const ENTRY = resolve(ROOT, `src/embedded/entry-${process.pid}.generated.ts`)
const WORK = mkdtempSync(join(tmpdir(), 'cmi-build-'))
process.on('exit', () => {
  rmSync(ENTRY, { force: true })
  rmSync(WORK, { recursive: true, force: true })
})
const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name)
  return resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : resolve(ROOT, fallback))
}
const OUTFILE = option('--outfile', 'dist/china-market-intel')
const DATASETS = option('--datasets', 'datasets')
const REPORT = process.argv.includes('--report') ? option('--report', 'dist/build-report.json') : undefined
const BYTECODE = !process.argv.includes('--no-bytecode')

function fail(message: string): never {
  console.error(`build: ${message}`)
  process.exit(1)
}

interface Asset {
  name: string
  source: string
  size: number
  sha256: string
}

function asset(name: string, source: string): Asset {
  if (!existsSync(source)) fail(`${relative(ROOT, source)} is missing`)
  const bytes = readFileSync(source)
  return { name, source, size: bytes.length, sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex') }
}

/** One hash over every file's name and content: the name of the cache folder it is extracted to. */
function bundleHash(assets: Asset[]): string {
  return new Bun.CryptoHasher('sha256').update(assets.map((a) => `${a.name}\0${a.sha256}\n`).join('')).digest('hex')
}

// DuckDB's native binding of this machine; the other platforms' bindings are left out, each by name
// (a wildcard external also drops the host's duckdb.node).
if (process.platform !== 'linux') fail(`builds on linux only (this is ${process.platform})`)
const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
if (!report?.header?.glibcVersionRuntime) fail('needs glibc (musl is not supported: DuckDB ships no musl library to embed)')
const bindings = JSON.parse(readFileSync(resolve(ROOT, 'node_modules/@duckdb/node-bindings/package.json'), 'utf8'))
const host = `@duckdb/node-bindings-linux-${process.arch}`
const others = Object.keys(bindings.optionalDependencies ?? {}).filter((p) => p !== host)
if (others.length === Object.keys(bindings.optionalDependencies ?? {}).length) fail(`no ${host} among DuckDB's bindings`)
/**
 * DuckDB's library as published keeps its full symbol table (.symtab/.strtab: 11 of its 70 MB), which
 * only debuggers read; the dynamic symbols the loader and duckdb.node use stay. Needs binutils' strip;
 * without it the library is embedded as published.
 */
function stripped(source: string): string {
  const out = join(WORK, 'libduckdb.so')
  try {
    const result = Bun.spawnSync(['strip', '--strip-unneeded', '-o', out, source], { stdout: 'ignore', stderr: 'pipe' })
    if (result.exitCode === 0) return out
    console.error(`build: strip failed (${result.stderr.toString().trim()}); embedding libduckdb.so unstripped`)
  } catch {
    console.error('build: no strip (binutils) on PATH; embedding libduckdb.so unstripped (11 MB larger)')
  }
  return source
}
const duckdb = [asset('libduckdb.so', stripped(resolve(ROOT, 'node_modules', host, 'libduckdb.so')))]

// Every dataset file the manifest lists, and the manifest itself.
const manifestFile = asset('manifest.json', resolve(DATASETS, 'manifest.json'))
const manifest = JSON.parse(readFileSync(manifestFile.source, 'utf8')) as { datasets?: Record<string, { file?: string }> }
const files = Object.entries(manifest.datasets ?? {}).map(([key, d]) => {
  const file = d.file
  if (typeof file !== 'string' || isAbsolute(file) || normalize(file).startsWith('..'))
    fail(`manifest.json: dataset "${key}" has no usable relative "file"`)
  return normalize(file)
})
const corpusIndex = await (async () => {
  const db = await DuckDb.open(1)
  try {
    return (await ensureCorpusIndex(db, DATASETS, () => folderVocabulary(db, DATASETS))).path
  } finally {
    db.close()
  }
})()
const datasets = [
  manifestFile,
  ...[...new Set(files)].map((f) => asset(f, resolve(DATASETS, f))),
  // Beside the corpus when extracted: where the service looks for it (corpus-index-cache.ts).
  asset(basename(corpusIndex), corpusIndex),
]

const importPath = (source: string) => {
  const p = relative(dirname(ENTRY), source).split('\\').join('/')
  return JSON.stringify(p.startsWith('.') ? p : `./${p}`)
}
const all = [...duckdb, ...datasets]
const bundle = (kind: string, assets: Asset[]) =>
  `{ kind: '${kind}', hash: '${bundleHash(assets)}', files: [\n${assets
    .map((a) => `    { name: ${JSON.stringify(a.name)}, path: a${all.indexOf(a)}, size: ${a.size} },`)
    .join('\n')}\n  ] }`
writeFileSync(
  ENTRY,
  `// @ts-nocheck -- generated by scripts/build.ts from datasets/manifest.json; not committed, do not edit.
// Each import embeds a file in the executable and yields its /$bunfs/ path.
${all.map((a, i) => `import a${i} from ${importPath(a.source)} with { type: 'file' }`).join('\n')}
import { startBinary } from './binary'

await startBinary({
  duckdb: ${bundle('duckdb', duckdb)},
  datasets: ${bundle('datasets', datasets)},
})
`,
)

mkdirSync(dirname(OUTFILE), { recursive: true })
const args = [
  'build',
  ENTRY,
  '--compile',
  `--outfile=${OUTFILE}`,
  // No --minify: renamed identifiers break Elysia.
  '--minify-whitespace',
  '--minify-syntax',
  // Precompiled bytecode (~10 MB): parsing the ~1,800 modules at every start costs more than reading it
  // (npm run bench:binary measures both).
  ...(BYTECODE ? ['--bytecode'] : []),
  '--format=esm',
  // bunfig.toml configures this repository's tests, not the service an operator runs; and a .env in
  // whatever folder the executable starts from is read only when asked (--env-file, ENV_FILE).
  '--no-compile-autoload-bunfig',
  '--no-compile-autoload-dotenv',
  ...others.map((p) => `--external=${p}/duckdb.node`),
]
console.error(`build: embedding ${datasets.map((d) => d.name).join(', ')} and ${host}/libduckdb.so`)
const proc = Bun.spawnSync([process.execPath, ...args], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' })
if (proc.exitCode !== 0) fail(`bun build exited with ${proc.exitCode}`)
console.error(`build: ${relative(ROOT, OUTFILE) || OUTFILE} (${(statSync(OUTFILE).size / 1e6).toFixed(1)} MB)`)
if (REPORT) {
  // The files embedded beside the code: these, plus the two the code imports itself (DuckDB's binding
  // and the API reference UI's script).
  const files = [
    ...all.map((a) => ({ name: a.name, part: duckdb.includes(a) ? 'duckdb' : 'datasets', size: a.size })),
    { name: 'duckdb.node', part: 'duckdb', size: statSync(resolve(ROOT, 'node_modules', host, 'duckdb.node')).size },
    {
      name: 'scalar-api-reference.js',
      part: 'docs',
      size: statSync(resolve(ROOT, 'src/http/assets/scalar-api-reference.js')).size,
    },
  ]
  writeFileSync(REPORT, JSON.stringify({ size: statSync(OUTFILE).size, bytecode: BYTECODE, files }, null, 2))
}
