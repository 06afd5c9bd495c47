// By module, not through the folders' faces: this runs before DuckDB's library is extracted, and the
// data/ face (or config/'s, through the settings) would load @duckdb/node-api, which then cannot find it.
import { preloadDuckDbLibrary } from '../native/duckdb-library'
import { builtinDatasets } from '../data/builtin'
import { extractBundle, type EmbeddedBundle } from './cache'
import { ConfigError } from '../core/config-error'
import { loadEnvFile } from '../config/env-file'

/** What `scripts/build.ts` embeds: DuckDB's shared library and every file `datasets/manifest.json` lists. */
export interface EmbeddedAssets {
  duckdb: EmbeddedBundle
  datasets: EmbeddedBundle
}

/**
 * Start of the single executable. Native code and DuckDB need real files, not Bun's `/$bunfs/` paths,
 * so this extracts what they read to a cache folder (once per content hash) before the CLI, and with
 * it `@duckdb/node-api`, is imported.
 */
export async function startBinary(assets: EmbeddedAssets): Promise<void> {
  try {
    loadEnvFile() // first: it may set DATASETS_DIR
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`Configuration error: ${error.message}`)
    process.exit(2)
  }
  try {
    const duckdbDir = await extractBundle(assets.duckdb)
    preloadDuckDbLibrary(`${duckdbDir}/${assets.duckdb.files[0]!.name}`)
    // DATASETS_DIR (the data team's files) wins, or a publication followed (DATA_SOURCE_URL); without
    // either, the datasets built into the executable.
    if (!process.env.DATASETS_DIR?.trim() && !process.env.DATA_SOURCE_URL?.trim()) {
      builtinDatasets.dir = await extractBundle(assets.datasets)
      process.env.DATASETS_DIR = builtinDatasets.dir
    }
  } catch (error) {
    console.error(`china-market-intel: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  await import('../index')
}
