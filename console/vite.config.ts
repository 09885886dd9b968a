import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// The service serves the built files at /console (src/lib/console.ts reads them from dist/console).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [
    react(),
    // DECISIONS §16: an installable app whose shell opens with no link (a Workbox service worker made at build).
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script',
      manifest: {
        name: 'Seaworthy',
        short_name: 'Seaworthy',
        description: 'Crew records and training, on board and ashore',
        start_url: '/console/',
        scope: '/console/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1c4e80',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        // Office-only screens (and the PDF viewer of the review queue) load when asked, online: the shell stays small (≤ 400 KB compressed).
        globIgnores: ['**/pdf.worker*', '**/LearningPage-*', '**/ReviewPage-*', '**/AdminPage-*'],
        navigateFallback: '/console/index.html',
        // The API and the content origin are never served from the shell's cache.
        navigateFallbackDenylist: [/^\/api\//],
        maximumFileSizeToCacheInBytes: 4 * 1_048_576,
      },
    }),
  ],
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
