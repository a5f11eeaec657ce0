/** SPEC §0 slugs live in `common/` so the renderer can name a project's folder too. */
export { MAX_SLUG_LENGTH, fnv1a32, slug } from '../../../common/paths/slug.js';
