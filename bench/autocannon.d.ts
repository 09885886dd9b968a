// autocannon ships no types; the harness uses its callback API and the instance's `response` events.
declare module 'autocannon' {
  function autocannon(options: Record<string, unknown>, done: (error: Error | null, result: any) => void): import('node:events').EventEmitter
  export default autocannon
}
