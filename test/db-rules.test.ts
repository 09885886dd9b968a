import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { testDatabase } from './app.js'

// src/db/rules holds every function's and trigger's current definition, written as the database
// prints it back (pg_get_functiondef, pg_get_triggerdef). The migrated database must hold exactly
// those: a migration that drifts from the files fails here, and so does a rule changed in the files
// without the migration that makes it so.

const RULES = fileURLToPath(new URL('../src/db/rules', import.meta.url))

/** Each statement of the files by the object it defines: `function name(args)` or `trigger table.name`. */
function rulesInFiles(): Record<string, string> {
  const rules: Record<string, string> = {}
  for (const file of readdirSync(RULES).filter((name) => name.endsWith('.sql'))) {
    const statements = readFileSync(join(RULES, file), 'utf8').split(/\n(?=CREATE OR REPLACE )/)
    for (const statement of statements) {
      // Comment lines between statements (at the line's start) describe them; they are not the definition.
      const text = statement.replace(/^(--.*\n|\n)*/, '').replace(/;\s*$/, '')
      if (text) rules[keyOf(text)] = text
    }
  }
  return rules
}

function keyOf(definition: string): string {
  const fn = definition.match(/^CREATE OR REPLACE FUNCTION public\.([^\n]+)\n/)
  if (fn) return `function ${fn[1]}`
  const trigger = definition.match(/^CREATE OR REPLACE TRIGGER (\w+) .* ON public\.(\w+) /)
  if (trigger) return `trigger ${trigger[2]}.${trigger[1]}`
  throw new Error(`not a function or trigger definition: ${definition.slice(0, 80)}`)
}

async function rulesInDatabase(): Promise<Record<string, string>> {
  const database = await testDatabase()
  const functions = await database.executeSql(
    `select pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  )
  const triggers = await database.executeSql(
    `select replace(pg_get_triggerdef(t.oid), 'CREATE TRIGGER', 'CREATE OR REPLACE TRIGGER') as definition
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`,
  )
  const rules: Record<string, string> = {}
  for (const { definition } of [...functions.rows, ...triggers.rows]) rules[keyOf(definition.trimEnd())] = definition.trimEnd()
  return rules
}

it('the migrated database holds exactly the functions and triggers of src/db/rules', async () => {
  const [files, database] = [rulesInFiles(), await rulesInDatabase()]
  expect(Object.keys(database).sort()).toEqual(Object.keys(files).sort())
  for (const [key, definition] of Object.entries(files)) expect(database[key], key).toBe(definition)
})
