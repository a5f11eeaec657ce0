export { slug, legacySlug, stringHash32, MAX_SLUG_LENGTH } from './slug.js';
export { findGitRoot } from './git-root.js';
export { ProjectPaths, assertSessionId, isValidSessionId } from './project-paths.js';
