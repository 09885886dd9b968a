// xhr2 ships no types: it is the browser's XMLHttpRequest, over node:http.
declare module 'xhr2' {
  const XMLHttpRequestOverHttp: typeof globalThis.XMLHttpRequest
  export default XMLHttpRequestOverHttp
}
