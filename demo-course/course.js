// The course's own script: cmi5 through @xapi/cmi5 (its UMD build, `cmi5.umd.js`, added by the build).
// Pages 1–3 are read, page 4 is the quiz: four right answers of five pass (masteryScore 0.8).
const ANSWERS = { q1: 'list', q2: 'seven', q3: 'mob', q4: 'master', q5: 'kit' }
const pages = [...document.querySelectorAll('section[data-page]')]
const status = document.getElementById('status')
const cmi5 = new Cmi5()
let page = 0
let judged = false

function show(index) {
  page = Math.max(0, Math.min(pages.length - 1, index))
  for (const [n, section] of pages.entries()) section.hidden = n !== page
  document.getElementById('back').disabled = page === 0
  document.getElementById('next').disabled = page === pages.length - 1
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
  const form = new FormData(event.target)
  const right = Object.entries(ANSWERS).filter(([name, value]) => form.get(name) === value).length
  const score = right / Object.keys(ANSWERS).length
  const mastery = cmi5.getLaunchData().masteryScore ?? 0.8
  judged = true
  const result = document.getElementById('result')
  result.hidden = false
  if (cmi5.getLaunchData().launchMode !== 'Normal') {
    result.textContent = `${right} of 5 right. (Review: nothing is recorded.)`
    return
  }
  await cmi5.complete()
  if (score >= mastery) {
    await cmi5.pass(score)
    result.textContent = `${right} of 5 right: passed. Choose Exit to go back.`
  } else {
    await cmi5.fail(score)
    result.textContent = `${right} of 5 right: not passed this time. Exit, and start the course again to retry.`
  }
})

cmi5
  .initialize()
  .then(() => {
    status.textContent = ''
    show(0)
  })
  .catch((error) => {
    status.textContent = `This course could not reach the training service: ${error.message}`
  })
