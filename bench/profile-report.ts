// The profiler's Markdown: one section per scenario, pasted as is into docs/performance.md.
import type { CpuPerRequest } from './cpu.js'
import type { LoadResult } from './load.js'
import type { ProfileSummary } from './profile-summary.js'

export interface ScenarioProfile {
  name: string
  title: string
  note?: string
  result: LoadResult
  cpu: CpuPerRequest
  server: ProfileSummary
  statements: {
    perRequest: { calls: number; execUs: number }
    top: { query: string; callsPerRequest: number; meanUs: number; usPerRequest: number; blocksPerCall: number }[]
  }
  plans: {
    query: string
    perRequest: number
    ms: number
    blocks: { hit: number; read: number; dirtied: number }
    triggers: { name: string; relation: string; ms: number; calls: number }[]
    plan: unknown
  }[]
}

const n = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const cell = (text: string) => text.replaceAll('|', '\\|')

function section(p: ScenarioProfile): string {
  const { server, statements } = p
  const lines = [
    `### ${p.title} (\`${p.name}\`)`,
    '',
    `${n(p.result.rps)} req/s, p99 ${p.result.p99} ms${p.note ? ` (${p.note})` : ''}. CPU per request: server ${p.cpu.serverUs} µs (profile: ${server.busyUsPerRequest} µs busy, ${server.idlePercent} % of the window idle), PostgreSQL ${p.cpu.postgresUs} µs; ${n(statements.perRequest.calls, 1)} statements per request, ${n(statements.perRequest.execUs)} µs executing.`,
    '',
    '| server layer | µs/req | share | | top functions (self) | µs/req |',
    '|---|--:|--:|---|---|--:|',
  ]
  const rows = Math.max(server.layers.length, Math.min(server.functions.length, 8))
  for (let i = 0; i < rows; i++) {
    const layer = server.layers[i]
    const fn = i < 8 ? server.functions[i] : undefined
    lines.push(
      `| ${layer ? `${layer.name} | ${layer.usPerRequest} | ${layer.percent} %` : ' | | '} | | ${fn ? `${cell(fn.name)} | ${fn.usPerRequest}` : ' | '} |`,
    )
  }
  lines.push('', '| PostgreSQL statement (pg_stat_statements) | calls/req | mean µs | µs/req | blocks/call |', '|---|--:|--:|--:|--:|')
  for (const s of statements.top.slice(0, 4)) {
    lines.push(
      `| \`${cell(s.query.slice(0, 90))}\` | ${n(s.callsPerRequest, 2)} | ${n(s.meanUs)} | ${n(s.usPerRequest)} | ${n(s.blocksPerCall, 1)} |`,
    )
  }
  const writes = p.plans.filter((plan) => /^\s*(with|insert|update|delete)/i.test(plan.query) && !/^\s*with\s+recursive/i.test(plan.query))
  if (writes.length > 0) {
    lines.push('', '| write (auto_explain, ANALYZE, BUFFERS) | ms | hit / read / dirtied | triggers: ms (calls) |', '|---|--:|---|---|')
    for (const w of writes.slice(0, 4)) {
      const triggers = w.triggers.map((t) => `${t.name} ${n(t.ms, 3)} (${t.calls})`).join(', ') || '–'
      lines.push(
        `| \`${cell(w.query.slice(0, 80))}\` | ${n(w.ms, 3)} | ${w.blocks.hit} / ${w.blocks.read} / ${w.blocks.dirtied} | ${cell(triggers)} |`,
      )
    }
  }
  return lines.join('\n')
}

export function renderProfile(profiles: ScenarioProfile[]): string {
  return `${profiles.map(section).join('\n\n')}\n`
}
