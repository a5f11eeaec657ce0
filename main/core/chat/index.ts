/** The chat engine's public face: what code outside main/core/chat imports. */
export { ConversationAgent, createClients, projectSwitches, resolveApiKey, sideQueryOf } from './agent-setup.js';
export type { AgentEnvironment } from './agent-setup.js';
export { ChatRunner } from './chat-runner.js';
export { MemoryChanges } from './memory-changes.js';
export { SessionCatalog } from './session-catalog.js';
export { buildSystemPrompt } from './system-prompt.js';
export type { SessionsChange } from './session-catalog.js';
