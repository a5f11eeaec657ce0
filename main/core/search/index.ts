/** The search engine's public face: what code outside main/core/search imports. */
export { loadSearchCache, saveSearchCache } from './index-cache.js';
export { SearchIndex } from './search-index.js';
export type { IndexedDoc, SearchQuery } from './search-index.js';
export { transcriptText } from './transcript-text.js';
export { analyze, analyzeQuery, foldText, nameTerms, stemWord, surfaceWords } from './analyzer.js';
export { nearTerms } from './near-terms.js';
export { TermIndex, type FieldScoring, type ScoreOptions, type ScoredDoc, type WeightedTerm } from './term-index.js';
