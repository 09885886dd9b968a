import { Alert } from '@mantine/core'
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useRef, useState } from 'react'
import { Loading } from '../shared/Loading.js'

// The worker is served from /console like every other built file (the CSP allows only 'self').
GlobalWorkerOptions.workerSrc = workerUrl

/** Draws page 1 of the PDF at `url` on a canvas, scaled to `width` CSS pixels. */
export function PdfFirstPage({ url, width, label }: { url: string; width: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [state, setState] = useState<'loading' | 'drawn' | string>('loading')

  useEffect(() => {
    const task = getDocument({ url, isEvalSupported: false })
    let cancelled = false
    task.promise
      .then(async (pdf) => {
        const page = await pdf.getPage(1)
        const target = canvas.current
        if (cancelled || !target) return
        const viewport = page.getViewport({ scale: (width / page.getViewport({ scale: 1 }).width) * window.devicePixelRatio })
        target.width = viewport.width
        target.height = viewport.height
        await page.render({ canvas: target, viewport }).promise
        if (!cancelled) setState('drawn')
      })
      .catch((error: Error) => !cancelled && setState(`The PDF could not be shown: ${error.message}`))
    return () => {
      cancelled = true
      void task.destroy()
    }
  }, [url, width])

  return (
    <>
      {state === 'loading' && <Loading />}
      {state !== 'loading' && state !== 'drawn' && <Alert color="red">{state}</Alert>}
      <canvas
        ref={canvas}
        role="img"
        aria-label={label}
        data-drawn={state === 'drawn'}
        style={{ width, display: state === 'drawn' ? 'block' : 'none' }}
      />
    </>
  )
}
