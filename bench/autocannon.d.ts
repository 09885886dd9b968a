// autocannon ships no types; the harness uses only its callback API.
declare module 'autocannon' {
  function autocannon(options: Record<string, unknown>, done: (error: Error | null, result: any) => void): unknown
  export default autocannon
}
