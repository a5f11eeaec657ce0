/** The security engine's public face: what code outside main/core/security imports. */
export { contentSecurityPolicy } from './csp.js';
export { mimeTypeOf, resolveStaticFile } from './static-files.js';
