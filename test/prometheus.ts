// The Prometheus text exposition format (version 0.0.4), read strictly: every line must be a comment,
// a HELP or TYPE line, or a sample, else the parse fails. The registry's only parser
// (parse-prometheus-text-format) drops the labels of histograms, which are what the tests check.

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Family {
  type: string
  samples: Sample[]
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\["\\\\n])*)"`
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL},?)*)\\})? (\\S+)(?: -?\\d+)?$`)
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`)
const SUFFIXES = ['_bucket', '_sum', '_count', '']

const unescapeLabel = (value: string) => value.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c))

/** As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case; prom-client writes `Nan`. */
function parseValue(raw: string, line: string): number {
  const word = raw.toLowerCase()
  if (word === 'nan') return Number.NaN
  if (/^[+-]?inf$/.test(word)) return word.startsWith('-') ? -Infinity : Infinity
  const value = Number(raw)
  if (raw.trim() === '' || Number.isNaN(value)) throw new Error(`Not a sample value: ${line}`)
  return value
}

/** The families of an exposition by name, each with its declared type and its samples. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>()
  for (const line of text.split('\n')) {
    if (line === '' || (line.startsWith('#') && !line.startsWith('# TYPE'))) continue
    const type = TYPE.exec(line)
    if (type) {
      families.set(type[1], { type: type[2], samples: [] })
      continue
    }
    const sample = SAMPLE.exec(line)
    if (!sample) throw new Error(`Not a line of the Prometheus text format: ${line}`)
    const [, name, rawLabels = '', , , rawValue] = sample
    const labels = Object.fromEntries([...rawLabels.matchAll(new RegExp(LABEL, 'g'))].map(([, key, value]) => [key, unescapeLabel(value)]))
    const family = SUFFIXES.map((suffix) => families.get(name.slice(0, name.length - suffix.length))).find(
      (candidate, i) => candidate && name.endsWith(SUFFIXES[i]),
    )
    if (!family) throw new Error(`A sample before its TYPE line: ${line}`)
    family.samples.push({ name, labels, value: parseValue(rawValue, line) })
  }
  return families
}
