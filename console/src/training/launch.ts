import type { components, SeaworthyClient } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'

export type Registration = components['schemas']['Registration']
export type CourseStructure = components['schemas']['CourseStructure']
export type LaunchMode = 'Normal' | 'Browse' | 'Review'

/** Where a course sends the learner when it ends: back to My training, which then reads the result. */
export const TRAINING_PATH = '/console/me/training'

/** The course's package structure, or null for a course without a package (the service's 404). */
export async function structureOf(api: SeaworthyClient, courseId: string): Promise<CourseStructure | null> {
  try {
    return await unwrap(api.GET('/api/v1/learn/courses/{course_id}/structure', { params: { path: { course_id: courseId } } }))
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/**
 * Opens a launch session and goes to the course in this tab, for OwnWindow and AnyWindow alike
 * (DECISIONS: launching in this tab): the course returns to `returnPath` when it ends.
 */
export async function launchCourse(
  api: SeaworthyClient,
  registrationId: string,
  options: { auIndex: number; launchMode: LaunchMode; returnPath: string },
): Promise<void> {
  const launched = await unwrap(
    api.POST('/api/v1/learn/registrations/{registration_id}/launch', {
      params: { path: { registration_id: registrationId } },
      body: { auIndex: options.auIndex, launchMode: options.launchMode, returnUrl: `${window.location.origin}${options.returnPath}` },
    }),
  )
  window.location.assign(launched.url)
}

/** The action a registration offers: start it, carry on, or look back at a finished one without recording. */
export function actionOf(status: Registration['status']): { label: string; mode: LaunchMode } {
  if (status === 'not_started') return { label: 'Start', mode: 'Normal' }
  if (status === 'in_progress') return { label: 'Resume', mode: 'Normal' }
  if (status === 'failed') return { label: 'Try again', mode: 'Normal' }
  return { label: 'Review', mode: 'Review' }
}

/** "1 h 05 min", "12 min", "40 s". */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

export type Urgency = 'overdue' | 'soon' | 'later' | 'none'

/** How pressing a due date is today: overdue, within a week, later, or no date. */
export function urgencyOf(dueDate: string | null, today = new Date().toISOString().slice(0, 10)): Urgency {
  if (!dueDate) return 'none'
  if (dueDate < today) return 'overdue'
  const week = new Date(`${today}T00:00:00Z`)
  week.setUTCDate(week.getUTCDate() + 7)
  return dueDate <= week.toISOString().slice(0, 10) ? 'soon' : 'later'
}
