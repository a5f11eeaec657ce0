/** The team engine's public face: what code outside main/core/team imports. */
export { TeamService } from './team-service.js';
