/**
 * Deterministic sample-data generator for the dataset routes.
 *
 *   bun scripts/generate-sample-data.ts [outDir] [--scale N] [--long-tail] [--cities K]   (default: <project>/datasets, scale 1)
 *
 * Writes one Parquet file per dataset contract plus manifest.json. Every figure is synthetic and the
 * same code always produces the same bytes (scripts/sample/random.ts: seeded per row, never the clock).
 *
 * `--scale N` (benchmarks; never into the shipped datasets/ folder) writes a larger world: N times the
 * evidence posts (./sample/evidence.ts), and flights and spend over ten years of months with K times the
 * origin and card-issuing cities (./sample/market-scale.ts; K = min(N, 30) unless `--cities` says).
 * With `--long-tail`, only the head of the evidence grows N times (the 10% of topics, brands and
 * destinations with the most posts); every other entity keeps its posts of scale 1, so rare entities
 * stay rare at 10x and 100x, as in a real corpus. Scale 1 is the shipped sample, byte for byte. A scaled set is loaded through a DuckDB file in the
 * output folder (removed at the end), so the largest never has to fit in memory.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { EVIDENCE, FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS, SPEND } from '../src/data/contracts'
import type { ManifestEntry } from '../src/data/import/datasets'
import { EVIDENCE_END, generateEvidence } from './sample/evidence'
import { buildRoutes, generateFlights, generateSpend } from './sample/market'
import { END_MONTH, START_MONTH, TEN_YEARS_FROM, monthRange } from './sample/market-calendar'
import { defaultCities, expandFlights, expandSpend } from './sample/market-scale'
import { manifestEntry, openDuckDB, writeParquet, type Expand, type Row } from './sample/parquet'
import { generateSignals, weekRange } from './sample/signals'

interface Options {
  outDir: string
  scale: number
  longTail: boolean
  cities: number
}

function options(): Options {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { scale: { type: 'string', default: '1' }, 'long-tail': { type: 'boolean', default: false }, cities: { type: 'string' } },
  })
  const defaultDir = fileURLToPath(new URL('../datasets', import.meta.url))
  const outDir = resolve(positionals[0] ?? defaultDir)
  const scale = Number(values.scale)
  const cities = values.cities === undefined ? defaultCities(scale) : Number(values.cities)
  if (!(scale >= 1) || !Number.isInteger(cities) || cities < 1) throw new Error('--scale must be a number >= 1, --cities an integer >= 1')
  if (scale !== 1 && outDir === defaultDir) throw new Error('a scaled set is for benchmarks: write it outside the shipped datasets/ folder')
  return { outDir, scale, longTail: values['long-tail'] === true, cities }
}

async function main(): Promise<void> {
  const started = performance.now()
  const { outDir, scale, longTail, cities } = options()
  await mkdir(outDir, { recursive: true })
  const scaled = scale !== 1

  const months = monthRange(scaled ? TEN_YEARS_FROM : START_MONTH, END_MONTH)
  const routes = buildRoutes()
  const flights = generateFlights(months, routes)
  const spend = generateSpend(months, flights)
  const weeks = weekRange()
  const signals = generateSignals(weeks)
  const monthly = { from: months[0]!.key, to: END_MONTH }
  const weekly = { from: weeks[0]!.start, to: weeks.at(-1)!.end }

  const work = join(outDir, '.generate')
  const { instance, conn } = await openDuckDB(
    scaled ? { file: `${work}.duckdb`, tempDir: `${work}.tmp`, memoryLimit: process.env.GENERATE_MEMORY_LIMIT ?? '6GB' } : undefined,
  )
  const expandMarket = scaled && cities > 1
  const datasets: { contract: typeof FLIGHTS; rows: Iterable<Row>; period: { from: string; to: string }; expand?: Expand }[] = [
    { contract: FLIGHTS, rows: flights, period: monthly, ...(expandMarket ? { expand: expandFlights(cities) } : {}) },
    { contract: SPEND, rows: spend, period: monthly, ...(expandMarket ? { expand: expandSpend(cities) } : {}) },
    { contract: SIGNAL_CREATORS, rows: signals.creators, period: weekly },
    { contract: SIGNAL_TOPICS, rows: signals.topics, period: weekly },
    { contract: SIGNAL_BRANDS, rows: signals.brands, period: weekly },
    {
      contract: EVIDENCE,
      rows: generateEvidence({ weeks, ...signals, flights }, scale, longTail),
      period: { from: weeks[0]!.start.slice(0, 7), to: EVIDENCE_END.slice(0, 7) },
    },
  ]
  const entries: Record<string, ManifestEntry> = {}
  try {
    for (const { contract, rows, period, expand } of datasets) {
      const t0 = performance.now()
      const path = join(outDir, contract.file)
      const written = await writeParquet(conn, contract, rows, path, expand)
      entries[contract.name] = await manifestEntry(contract, path, written, period)
      if (scaled) console.error(`  ${contract.name}: ${written} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    }
  } finally {
    conn.closeSync()
    instance.closeSync()
    if (scaled)
      await Promise.all([`${work}.duckdb`, `${work}.duckdb.wal`, `${work}.tmp`].map((p) => rm(p, { recursive: true, force: true })))
  }

  const manifest = {
    generated_by: scaled
      ? `scripts/generate-sample-data.ts --scale ${scale}${longTail ? ' --long-tail' : ''} --cities ${cities}`
      : 'scripts/generate-sample-data.ts',
    sample: true,
    note: 'Generated, deterministic sample data with real place names and invented brand and creator names; figures are not real.',
    datasets: entries,
  }
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  await printSummary(outDir, routes.length, months, entries, performance.now() - started)
}

async function printSummary(
  outDir: string,
  routeCount: number,
  months: readonly { key: string }[],
  entries: Record<string, ManifestEntry>,
  elapsedMs: number,
): Promise<void> {
  console.log(`sample data -> ${outDir} (${months.length} months ${months[0]!.key}..${END_MONTH}, ${routeCount} routes, weekly signals)`)
  for (const [name, entry] of Object.entries(entries)) {
    const bytes = (await stat(join(outDir, entry.file))).size
    const size = `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    console.log(`  ${name.padEnd(16)} ${String(entry.rows).padStart(8)} rows  ${size.padStart(10)}  ${entry.version}`)
  }
  console.log(`  done in ${(elapsedMs / 1000).toFixed(1)} s`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
