/** The team-memory sync server (docs/sync-protocol.md): start it, and administer its accounts. */
export { startTeamServer, type TeamServer, type TeamServerOptions } from './team-server.js';
export { TeamAdmin } from './admin/team-admin.js';
export { defaultLimits, defaultLifetimes, defaultPort, type ServerLimits } from './server-options.js';
