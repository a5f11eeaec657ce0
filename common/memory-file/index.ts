/** The one reader and writer of memory files and MEMORY.md (pure: main, renderer and team engine share it). */
export * from './memory-types.js';
export * from './frontmatter.js';
export * from './write.js';
export * from './memory-index.js';
export * from './repair.js';
export * from './provenance.js';
export * from './head-edits.js';
