/**
 * Prefixes the server serves itself, outside the page router, that no page or username may
 * take (features/users checks its reserved names against this list): `/realtime`, the
 * WebSocket endpoint (server/realtime).
 */
export const RESERVED_PREFIXES = ['/realtime'] as const
