/**
 * The layer rule of src/ (docs/development.md, "Layers"): a folder imports only from the layers below its
 * own (not from a sibling of its layer), so no two folders can import each other, and no module imports
 * in a cycle. A folder of several modules is entered from outside through its face (index.ts). Every folder of src/ has a place here (test/architecture/layers.test.ts checks both).
 */
const LAYERS = [
  ['core'],
  ['catalog'],
  ['formats'],
  ['native', 'data', 'postgres'],
  ['ledger'],
  ['payments', 'intelligence', 'market-data'],
  ['signals'],
  ['capabilities'],
  ['paid-call', 'discovery'],
  ['mcp', 'http'],
  ['config'],
  ['composition'],
  ['docs', 'cli'],
  ['entry'],
  ['embedded'],
]

const { readdirSync } = require('node:fs')
const { join } = require('node:path')

// A folder of more than one module is entered through its face, index.ts (docs/development.md, "Rooms").
const modulesIn = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (count, entry) =>
      count + (entry.isDirectory() ? modulesIn(join(dir, entry.name)) : /(?<!\.d)\.ts$/.test(entry.name) ? 1 : 0),
    0,
  )
const srcFolders = () => {
  try {
    return readdirSync('src', { withFileTypes: true }).filter((entry) => entry.isDirectory())
  } catch {
    return []
  }
}
const FACED = srcFolders()
  .filter((entry) => modulesIn(join('src', entry.name)) > 1)
  .map((entry) => entry.name)

const folder = (name) => (name === 'entry' ? '^src/[^/]+\\.ts$' : `^src/${name}/`)
const below = (i) => LAYERS.slice(0, i + 1).flat()
const above = (i) => LAYERS.slice(i + 1).flat()

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means neither side can be read or tested without the other.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...LAYERS.flatMap((layer, i) =>
      layer.flatMap((name) => {
        const higher = [...above(i), ...layer.filter((other) => other !== name)]
        return higher.length === 0
          ? []
          : [
              {
                name: `layer-${name}`,
                severity: 'error',
                comment: `${name} sits above ${below(i - 1).join(', ') || 'nothing'}: it imports neither ${higher.join(', ')}.`,
                from: { path: folder(name) },
                to: { path: higher.map(folder).join('|') },
              },
            ]
      }),
    ),
    ...FACED.map((name) => ({
      name: `face-${name}`,
      severity: 'error',
      comment: `Other folders enter ${name}/ through its face, ${name}/index.ts; a lazy import() may name the module it loads, and so may the executable's start.`,
      // The executable's start (embedded/) names modules: it runs before DuckDB's library is in place (binary.ts).
      from: { path: '^src/', pathNot: `^src/(${name}|embedded)/` },
      to: { path: `^src/${name}/`, pathNot: `^src/${name}/index\\.ts$`, dependencyTypesNot: ['dynamic-import'] },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
  },
}
// For the test that every folder of src/ has a place (not a rule: dependency-cruiser validates its own keys).
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false })
