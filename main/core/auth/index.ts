/** The auth engine's public face: what code outside main/core/auth imports. */
export { API_KEY_ACCOUNT, MemoryCredentialStore, loadKeytarStore } from './credential-store.js';
