// simple-scorm-packager ships no types: the options the tests use.
declare module 'simple-scorm-packager' {
  interface PackagerOptions {
    version: '1.2' | '2004 3rd Edition' | '2004 4th Edition'
    organization: string
    title: string
    identifier?: string
    masteryScore?: number
    startingPage?: string
    source: string
    package: { zip: boolean; outputFolder: string; version?: string; name?: string }
  }
  export default function scopackager(options: PackagerOptions, done: (message: string) => void): void
}
