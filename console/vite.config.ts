import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The service serves the built files at /console (src/lib/console.ts reads them from dist/console).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Source maps stay out of the served tree; the console is small enough to read as built.
    sourcemap: false,
  },
  server: {
    // `vite` in console/ for development, the API on the usual local port.
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
})
