/**
 * The face of cli/: the commands the entry point loads at once; the others are imported on demand by path.
 */
export { redactOutput } from './redacted-output'
export { serve } from './serve'
