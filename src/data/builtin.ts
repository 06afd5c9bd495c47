/**
 * Set by the single executable when it serves the datasets built into it (extracted to a cache
 * folder). That folder is a read-only copy: `data import` and `data rollback` refuse to change it.
 */
export const builtinDatasets: { dir?: string } = {}
