import type { Module } from '../types.js'

// Placeholder: replaced by the feature's routes.
export const registrationsRoutes: Module = () => {}
