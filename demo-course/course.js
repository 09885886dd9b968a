// The course's own script: cmi5 through @xapi/cmi5 (its UMD build, `cmi5.umd.js`, added by the build).
// Pages 1–3 are read, page 4 is the quiz: four right answers of five pass (masteryScore 0.8).
// cmi5 §9.3 allows one `completed` and one `passed` per registration: a later session (a retry after a fail)
// first asks the LRS what this registration has already recorded and sends only what is still owed.
const QUESTIONS = [
  { id: 'q1', right: 'list', text: 'Where do you learn your muster station?' },
  { id: 'q2', right: 'seven', text: 'The general emergency alarm is…' },
  { id: 'q3', right: 'mob', text: 'Three long blasts mean…' },
  { id: 'q4', right: 'master', text: 'Who orders abandon ship?' },
  { id: 'q5', right: 'kit', text: 'At the general alarm you bring…' },
]
const pages = [...document.querySelectorAll('section[data-page]')]
const status = document.getElementById('status')
const result = document.getElementById('result')
const cmi5 = new Cmi5()
let page = 0
let judged = false

function show(index) {
  page = Math.max(0, Math.min(pages.length - 1, index))
  for (const [n, section] of pages.entries()) section.hidden = n !== page
  document.getElementById('back').disabled = page === 0
  document.getElementById('next').disabled = page === pages.length - 1
}

/** Whether this registration already holds the verb for this AU (the session credential reads its registration). */
async function recorded(verb) {
  const { endpoint, registration, activityId } = cmi5.getLaunchParameters()
  const url = new URL('statements', endpoint.endsWith('/') ? endpoint : `${endpoint}/`)
  url.search = new URLSearchParams({
    registration,
    activity: activityId,
    verb: `http://adlnet.gov/expapi/verbs/${verb}`,
    limit: '1',
  }).toString()
  const response = await fetch(url, { headers: { authorization: `Basic ${cmi5.getAuthToken()}`, 'x-experience-api-version': '1.0.3' } })
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).message ?? `the training service answered ${response.status}`)
  return (await response.json()).statements.length > 0
}

/** The LRS's reason for refusing a statement, in words (its error body's message, else the HTTP status). */
function reason(error) {
  const body = error?.response?.data
  const said = typeof body === 'string' ? body : (body?.message ?? body?.detail)
  return said || error?.message || 'no answer'
}

/** One `answered` statement per question, with its definition, so the office sees which questions are hard. */
async function answer(form) {
  for (const question of QUESTIONS) {
    const given = String(form.get(question.id))
    const choices = [...document.querySelectorAll(`input[name="${question.id}"]`)].map((input) => ({
      id: input.value,
      description: { 'en-US': input.parentElement.textContent.trim() },
    }))
    await cmi5.interactionChoice(
      'quiz',
      question.id,
      [given],
      [question.right],
      choices,
      { 'en-US': question.text },
      undefined,
      given === question.right,
    )
  }
}

async function judge(form) {
  const right = QUESTIONS.filter((question) => form.get(question.id) === question.right).length
  const score = right / QUESTIONS.length
  const mastery = cmi5.getLaunchData().masteryScore ?? 0.8
  if (cmi5.getLaunchData().launchMode !== 'Normal') return `${right} of 5 right. (Review: nothing is recorded.)`
  if (await recorded('passed')) return `${right} of 5 right. You passed this course before; that result stands.`
  await answer(form)
  if (!(await recorded('completed'))) await cmi5.complete()
  if (score >= mastery) {
    await cmi5.pass(score)
    return `${right} of 5 right: passed. Choose Exit to go back.`
  }
  await cmi5.fail(score)
  return `${right} of 5 right: not passed this time. Exit, and start the course again to retry.`
}

async function exit() {
  await cmi5.terminate().catch(() => undefined)
  const back = cmi5.getLaunchData().returnURL
  if (back) window.location.href = back
  else status.textContent = 'You can close this window.'
}

document.getElementById('back').addEventListener('click', () => show(page - 1))
document.getElementById('next').addEventListener('click', () => show(page + 1))
document.getElementById('exit').addEventListener('click', () => void exit())
document.getElementById('quiz').addEventListener('submit', async (event) => {
  event.preventDefault()
  if (judged) return
  judged = true
  const submit = event.target.querySelector('button[type="submit"]')
  submit.disabled = true
  result.hidden = false
  result.textContent = 'Recording your answers…'
  try {
    result.textContent = await judge(new FormData(event.target))
  } catch (error) {
    // Never swallowed: the learner learns their answers were not recorded, and may send them again.
    judged = false
    submit.disabled = false
    result.textContent = `Your answers were not recorded: ${reason(error)}. Try Submit answers again; if it fails again, tell the office.`
  }
})

cmi5
  .initialize()
  .then(() => {
    status.textContent = ''
    show(0)
  })
  .catch((error) => {
    status.textContent = `This course could not reach the training service: ${reason(error)}`
  })
