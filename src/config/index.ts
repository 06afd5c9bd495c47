/**
 * The face of config/: the settings table and the environment read and checked against it.
 */
export { loadConfig } from './config'
export type { Config } from './config'
export { isCompiled, loadEnvFile } from './env-file'
export { keepSecretsOf } from './secrets'
export { DEV_PAY_TO, ENV } from './settings'
