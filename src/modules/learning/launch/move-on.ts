import type { MoveOn } from '../packages/packages.schemas.js'

/** What a registration has of one AU (the registration_aus row; absent means nothing yet). */
export interface AuState {
  completed: boolean
  passed: boolean
  waived: string | null
}

const NOTHING: AuState = { completed: false, passed: false, waived: null }

/** Whether an AU meets its moveOn (cmi5 §13.1.4 moveOn; a waived AU meets it, §9.3.7). */
export function meetsMoveOn(moveOn: MoveOn, state: AuState = NOTHING): boolean {
  if (state.waived) return true
  switch (moveOn) {
    case 'NotApplicable':
      return true
    case 'Completed':
      return state.completed
    case 'Passed':
      return state.passed
    case 'CompletedAndPassed':
      return state.completed && state.passed
    case 'CompletedOrPassed':
      return state.completed || state.passed
  }
}

/** Which AUs, blocks and whether the course meet moveOn, for the package's AUs and blocks and the registration's AU states. */
export function satisfaction(
  aus: readonly { moveOn: MoveOn }[],
  blocks: readonly { auIndexes: number[] }[],
  states: ReadonlyMap<number, AuState>,
): { aus: boolean[]; blocks: boolean[]; course: boolean } {
  const auSatisfied = aus.map((au, index) => meetsMoveOn(au.moveOn, states.get(index)))
  return {
    aus: auSatisfied,
    blocks: blocks.map((block) => block.auIndexes.every((index) => auSatisfied[index])),
    course: auSatisfied.every(Boolean),
  }
}
