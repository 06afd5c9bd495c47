import { dlopen } from 'bun:ffi'

/** Kept referenced for the life of the process so the library is never unloaded under DuckDB. */
let loaded: ReturnType<typeof open> | null = null

// bun:ffi wants at least one symbol; this one is in every libduckdb and costs nothing to bind.
const open = (path: string) => dlopen(path, { duckdb_library_version: { args: [], returns: 'cstring' } })

/**
 * Loads DuckDB's shared library (libduckdb.so) from a real file before `@duckdb/node-api` is imported.
 * `duckdb.node` names it as a needed library; the dynamic linker then finds the copy already loaded
 * (same soname) instead of searching beside `duckdb.node`, which in the executable is a temp file.
 */
export function preloadDuckDbLibrary(path: string): void {
  if (loaded) return
  try {
    loaded = open(path)
  } catch (error) {
    throw new Error(
      `cannot load DuckDB's native library ${path}: ${error instanceof Error ? error.message : String(error)}` +
        ' (this executable needs glibc on linux; a cache folder on a noexec mount cannot hold it: set XDG_CACHE_HOME)',
    )
  }
}
