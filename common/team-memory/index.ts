/** Team memory protocol pieces shared by the server and the desktop client (docs/sync-protocol.md). */
export * from './key-validator.js';
export * from './checksum.js';
export * from './protocol.js';
export * from './key-space.js';
