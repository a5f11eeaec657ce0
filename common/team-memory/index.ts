/** Team memory protocol pieces shared by the server and the desktop client (SPEC §5). */
export * from './key-validator.js';
export * from './checksum.js';
export * from './protocol.js';
export * from './key-space.js';
