/** The projects engine's public face: what code outside main/core/projects imports. */
export { ProjectRegistry } from './project-registry.js';
