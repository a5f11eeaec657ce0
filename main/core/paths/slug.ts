/** docs/memory.md#where-things-live slugs live in `common/` so the renderer can name a project's folder too. */
export { MAX_SLUG_LENGTH, legacySlug, slug, stringHash32 } from '../../../common/paths/slug.js';
