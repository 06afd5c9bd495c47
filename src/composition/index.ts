/**
 * The face of composition/: the runtime and the app built from the settings.
 */
export { implementedRouteIds } from './handler-map'
export { createRuntime, datasetIndexers, metricsAccess } from './runtime'
export type { Runtime } from './runtime'
export { folderVocabulary } from './signals-vocabulary'
