// What a scenario is, apart from the scenarios, so that every list of them imports it and none imports another.
import type { LoadRequest } from './load.js'

export interface Scenario {
  name: string
  title: string
  /** Concurrent connections when not the run's (BENCH_CONNECTIONS). */
  connections?: number
  /**
   * `bare`: served by bench/bare-app.ts, not by the service. `sweeping`: a server of its own with the
   * background jobs on, started for the scenario with the contract sea-service sweep due over the whole
   * fleet (its marks cleared), and loaded once the sweep runs.
   */
  server?: 'bare' | 'sweeping'
  /** The requests the load cycles through; may read the API first (the deep page's cursor). */
  prepare(api: Api): Promise<LoadRequest[]>
}

/** A GET with the admin's token, or with other headers on top. */
export type Api = (path: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }>
