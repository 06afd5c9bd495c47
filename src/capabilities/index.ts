/**
 * The face of capabilities/: the three wrappers that orchestrate other routes into one decision-ready answer.
 */
export { SessionStore } from './sessions'
export { capabilityHandlers } from './wrappers'
