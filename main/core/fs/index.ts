/** The fs engine's public face: what code outside main/core/fs imports. */
export { atomicTempPattern, readJsonFile, writeFileAtomic, writeJsonAtomic } from './atomic-write.js';
export { WriteBatch } from './write-batch.js';
export { listDirs } from './list-dirs.js';
